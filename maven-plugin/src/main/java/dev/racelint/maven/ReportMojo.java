package dev.racelint.maven;

import dev.racelint.analyzer.report.ScanReport;
import java.nio.file.Path;
import java.util.List;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * The same analysis as {@code racelint:check}, writing the report files (SARIF by default; JSON
 * and text on request) and logging the findings, but never failing the build on them.
 */
@Mojo(name = "report", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true,
        requiresDependencyResolution = ResolutionScope.COMPILE)
public class ReportMojo extends AbstractRacelintMojo {

    @Override
    protected FailOn failOn() {
        return FailOn.NONE;
    }

    @Override
    protected int maxAllowedViolations() {
        return 0;
    }

    @Override
    protected void conclude(Verdict verdict, ScanReport report, List<Path> written) {
        // A report never fails the build.
    }
}
