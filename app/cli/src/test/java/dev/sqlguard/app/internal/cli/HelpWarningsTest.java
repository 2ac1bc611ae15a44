package dev.sqlguard.app.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;

/**
 * picocli formats every description with {@code String.format}: a bare {@code %} (as in a strftime
 * example, {@code %d.%m.%Y}) makes it print a warning on the process's stderr for each use. Every
 * command's help is rendered here with stderr captured, and must print none.
 */
class HelpWarningsTest {
    @TempDir
    Path dir;

    @Test
    void noCommandsHelpMakesPicocliWarn() {
        PrintStream saved = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            CommandLine root = Main.commandLine(new CliContext(System.in, new PrintStream(new ByteArrayOutputStream(), true,
                    StandardCharsets.UTF_8), saved, Map.of("NO_COLOR", "1"), dir));
            assertThat(root.getUsageMessage()).contains("load");
            for (Map.Entry<String, CommandLine> sub : root.getSubcommands().entrySet()) {
                assertThat(sub.getValue().getUsageMessage()).as(sub.getKey()).contains("Usage:");
            }
        } finally {
            System.setErr(saved);
        }
        assertThat(captured.toString(StandardCharsets.UTF_8)).doesNotContain("picocli WARN").isEmpty();
    }

    @Test
    void loadHelpShowsTheDateFormatExampleAsWritten() {
        CliRun run = CliRun.of(dir, "", Map.of("NO_COLOR", "1"), "load", "--help");
        assertThat(run.code()).isZero();
        assertThat(run.out().replaceAll("\\s+", " ")).contains("%d.%m.%Y");
    }
}
