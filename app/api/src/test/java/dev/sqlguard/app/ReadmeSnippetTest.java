package dev.sqlguard.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The README's embedding program is the compiled, tested {@code example.ClaimsByRegion}, word for word. */
class ReadmeSnippetTest {
    @Test
    void theReadmeQuotesTheCompleteProgramWordForWord() throws IOException {
        List<String> source = Files.readAllLines(Path.of("src/test/java/example/ClaimsByRegion.java"));
        String program = String.join("\n", source.subList(indexOf(source, "// tag::program[]") + 1,
                indexOf(source, "// end::program[]")));

        assertThat(program).contains("public static void main(String[] args)").contains("import dev.sqlguard.app.SqlGuard;");
        assertThat(Files.readString(Path.of("../../README.md"))).contains("```java\n" + program + "\n```");
    }

    private static int indexOf(List<String> lines, String marker) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).trim().equals(marker)) {
                return i;
            }
        }
        throw new AssertionError("marker not found: " + marker);
    }
}
