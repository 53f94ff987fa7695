package dev.racelint.maven;

import dev.racelint.analyzer.report.ScanReport;
import java.nio.file.Path;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Analyses the module's sources (with its upstream reactor modules' sources in view, so call
 * paths that cross modules are followed), writes the report files, logs each finding, and fails
 * the build when more than {@code maxAllowedViolations} findings at or above {@code failOn}
 * remain after suppressions and the baseline.
 */
@Mojo(name = "check", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true,
        requiresDependencyResolution = ResolutionScope.COMPILE)
public class CheckMojo extends AbstractRacelintMojo {

    /**
     * The lowest finding level that fails the build: {@code error}, {@code warning}, {@code note},
     * or {@code none} (never fail; the reports are still written).
     */
    @Parameter(property = "racelint.failOn", defaultValue = "error")
    private String failOn;

    /**
     * The switch other analysers' plugins offer (checkstyle, pmd, spotbugs): {@code false} never
     * fails the build (as {@code failOn=none}), {@code true} fails it at {@code failOn}. Unset by default.
     */
    @Parameter(property = "racelint.failOnViolation")
    private Boolean failOnViolation;

    /**
     * How many findings at or above {@code failOn} are tolerated: the build fails only when there
     * are more.
     */
    @Parameter(property = "racelint.maxAllowedViolations", defaultValue = "0")
    private int maxAllowedViolations;

    @Override
    protected FailOn failOn() throws MojoExecutionException {
        FailOn parsed = FailOn.parse(failOn);
        if (parsed != null && Boolean.FALSE.equals(failOnViolation)) {
            return FailOn.NONE;
        }
        if (parsed == null) {
            throw new MojoExecutionException("racelint: failOn (racelint.failOn) must be error, warning, note or none, not '"
                    + failOn + "'");
        }
        return parsed;
    }

    @Override
    protected int maxAllowedViolations() throws MojoExecutionException {
        if (maxAllowedViolations < 0) {
            throw new MojoExecutionException("racelint: maxAllowedViolations (racelint.maxAllowedViolations) must be 0 or more, not "
                    + maxAllowedViolations);
        }
        return maxAllowedViolations;
    }

    @Override
    protected void conclude(Verdict verdict, ScanReport report, List<Path> written) throws MojoFailureException {
        if (!verdict.fails()) {
            if (verdict.counted() > 0) {
                getLog().info("racelint: " + verdict.counted() + " finding" + (verdict.counted() == 1 ? "" : "s")
                        + " at or above " + verdict.failOn() + ", within maxAllowedViolations (" + verdict.allowed() + ")");
            }
            return;
        }
        // the text report is the one to read in a terminal; its absolute path works from any folder
        Path readable = written.stream().filter(p -> p.getFileName().toString().endsWith(".txt")).findFirst()
                .orElse(written.isEmpty() ? null : written.get(0));
        String where = readable == null ? "" : "; see " + readable.toAbsolutePath().normalize();
        throw new MojoFailureException("racelint found " + verdict.counted() + " finding" + (verdict.counted() == 1 ? "" : "s")
                + " at or above " + verdict.failOn()
                + (verdict.allowed() > 0 ? " (maxAllowedViolations is " + verdict.allowed() + ")" : "")
                + " in " + project.getArtifactId() + where);
    }
}
