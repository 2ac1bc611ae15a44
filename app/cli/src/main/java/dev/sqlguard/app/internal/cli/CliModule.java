package dev.sqlguard.app.internal.cli;

import static java.util.Objects.requireNonNull;

import java.io.PrintStream;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;

/** Binds what the CLI adds to the application: the output format and its printer on stdout. */
final class CliModule extends AbstractModule {
    private final OutputFormat format;
    private final PrintStream stdout;

    CliModule(OutputFormat format, PrintStream stdout) {
        this.format = requireNonNull(format, "format is null");
        this.stdout = requireNonNull(stdout, "stdout is null");
    }

    @Override
    protected void configure() {
        bind(OutputFormat.class).toInstance(format);
    }

    @Provides
    @Singleton
    ResultPrinter printer(OutputFormat chosen) {
        return switch (chosen) {
            case json -> new JsonResultPrinter(stdout);
            case table -> new TableResultPrinter(stdout);
        };
    }
}
