package dev.racelint.maven;

import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * The whole reactor as one scan, run once from the top-level project: every module's sources are
 * analysed together (as {@code racelint scan .} at the repository root does) and written as one
 * report - one SARIF run for the whole build, which is what GitHub code scanning wants from a big
 * build (it accepts at most 20 runs in one upload, and one per category). Never fails the build:
 * bind {@code check} for that.
 */
@Mojo(name = "aggregate", aggregator = true, defaultPhase = LifecyclePhase.VERIFY, threadSafe = true,
        requiresDependencyResolution = ResolutionScope.COMPILE)
public class AggregateMojo extends AbstractRacelintMojo {

    @Override
    protected boolean isAggregate() {
        return true;
    }
}
