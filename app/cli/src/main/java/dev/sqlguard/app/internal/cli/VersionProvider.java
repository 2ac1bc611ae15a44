package dev.sqlguard.app.internal.cli;

import picocli.CommandLine.IVersionProvider;

/** The version from the jar manifest. */
final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        String version = VersionProvider.class.getPackage().getImplementationVersion();
        return new String[] {"sqlguard " + (version == null ? "(development build)" : version)};
    }
}
