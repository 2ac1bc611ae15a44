package dev.sqlguard.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * Every Java block of docs/writing-an-adapter.md is code that compiles: its first line names a
 * source file of this repository, and its other lines stand in that file in the same order, with
 * {@code // ...} where the guide leaves lines out (indentation and blank lines aside).
 */
class WritingAnAdapterGuideTest {
    private static final Path ROOT = Path.of("..");
    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL);
    private static final String GAP = "// ...";

    @Test
    void everyJavaSnippetIsCopiedFromASourceFile() throws IOException {
        String guide = Files.readString(ROOT.resolve("docs/writing-an-adapter.md"));
        Matcher m = JAVA_BLOCK.matcher(guide);
        int blocks = 0;
        while (m.find()) {
            blocks++;
            List<String> lines = m.group(1).lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
            assertThat(lines.get(0)).as("a snippet's first line names its source file").startsWith("// ");
            Path source = ROOT.resolve(lines.get(0).substring(3));
            assertThat(source).as("snippet source").isRegularFile();
            List<String> code = Files.readAllLines(source).stream().map(String::strip).filter(l -> !l.isEmpty()).toList();
            assertThat(findInOrder(lines.subList(1, lines.size()), code))
                    .as("the snippet from %s matches the file", source).isTrue();
        }
        assertThat(blocks).as("Java snippets in the guide").isGreaterThanOrEqualTo(4);
    }

    /** Whether the runs of {@code snippet} between gaps stand in {@code code}, consecutively and in order. */
    private static boolean findInOrder(List<String> snippet, List<String> code) {
        List<List<String>> runs = new ArrayList<>();
        List<String> run = new ArrayList<>();
        for (String line : snippet) {
            if (line.equals(GAP)) {
                runs.add(run);
                run = new ArrayList<>();
            } else {
                run.add(line);
            }
        }
        runs.add(run);
        int from = 0;
        for (List<String> r : runs) {
            if (r.isEmpty()) {
                continue;
            }
            int at = indexOf(code, r, from);
            if (at < 0) {
                return false;
            }
            from = at + r.size();
        }
        return true;
    }

    private static int indexOf(List<String> code, List<String> run, int from) {
        for (int i = from; i + run.size() <= code.size(); i++) {
            if (code.subList(i, i + run.size()).equals(run)) {
                return i;
            }
        }
        return -1;
    }
}
