package dev.sqlguard.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

/** The README's embedding snippet is the compiled, tested code of {@link ReadmeSnippetIT}, word for word. */
class ReadmeSnippetTest {
    @Test
    void theReadmeFragmentQuotesTheTestedSnippet() throws IOException {
        List<String> source = Files.readAllLines(Path.of("src/test/java/dev/sqlguard/app/ReadmeSnippetIT.java"));
        int start = indexOf(source, "// tag::embed[]");
        int end = indexOf(source, "// end::embed[]");
        List<String> body = source.subList(start + 1, end);
        int indent = body.stream().filter(l -> !l.isBlank()).mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
        String snippet = body.stream().map(l -> l.isBlank() ? "" : l.substring(indent)).collect(Collectors.joining("\n"));

        String fragment = Files.readString(Path.of("../../README.md"));

        assertThat(snippet).contains("SqlGuard.builder()");
        assertThat(fragment).contains("```java\n" + snippet + "\n```");
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
