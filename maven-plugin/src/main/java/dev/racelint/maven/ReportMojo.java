package dev.racelint.maven;

import java.io.File;
import java.util.Locale;
import org.apache.maven.doxia.sink.Sink;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.apache.maven.reporting.MavenReport;
import org.apache.maven.reporting.MavenReportException;

/**
 * The same analysis as {@code racelint:check}, writing the report files (SARIF by default; JSON,
 * text and HTML on request) and logging the findings, but never failing the build on them. Listed in
 * the POM's {@code <reporting>}, it is also a site report: {@code mvn site} renders a "racelint" page
 * with the module's findings (rule, level, place, message and fix).
 */
@Mojo(name = "report", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true,
        requiresDependencyResolution = ResolutionScope.COMPILE)
public class ReportMojo extends AbstractRacelintMojo implements MavenReport {

    private File reportOutputDirectory;

    // ---- the site report

    @Override
    public void generate(Sink sink, Locale locale) throws MavenReportException {
        try {
            execute();
        } catch (MojoExecutionException | MojoFailureException e) {
            throw new MavenReportException(e.getMessage(), e);
        }
        SiteReport.render(sink, lastReport, project.getArtifactId(), skip);
    }

    @Override
    public String getOutputName() {
        return "racelint";
    }

    @Override
    public String getCategoryName() {
        return CATEGORY_PROJECT_REPORTS;
    }

    @Override
    public String getName(Locale locale) {
        return "racelint";
    }

    @Override
    public String getDescription(Locale locale) {
        return "Races between requests, rows and messages that racelint found in the module's sources.";
    }

    @Override
    public void setReportOutputDirectory(File directory) {
        this.reportOutputDirectory = directory;
    }

    @Override
    public File getReportOutputDirectory() {
        return reportOutputDirectory;
    }

    @Override
    public boolean isExternalReport() {
        return false;
    }

    @Override
    public boolean canGenerateReport() {
        return !"pom".equals(project.getPackaging());
    }
}
