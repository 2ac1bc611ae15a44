package dev.sqlguard.app.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** One in-process run of the CLI: its exit code and what it printed on stdout and stderr. */
record CliRun(int code, String out, String err) {
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    /** Runs {@code args} in the working folder {@code cwd}, with {@code stdin} and exactly the environment {@code env}. */
    static CliRun of(Path cwd, String stdin, Map<String, String> env, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CliContext ctx = new CliContext(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                env, cwd);
        int code = Main.run(args, ctx);
        return new CliRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Every stdout line, each of which must be JSON. */
    List<JsonNode> lines() {
        List<JsonNode> nodes = new ArrayList<>();
        for (String line : out.split("\n")) {
            if (!line.isEmpty()) {
                try {
                    nodes.add(JSON.readTree(line));
                } catch (IOException e) {
                    throw new AssertionError("stdout line is not JSON: " + line, e);
                }
            }
        }
        return nodes;
    }

    /** One line of JSON. */
    static JsonNode parse(String line) {
        try {
            return JSON.readTree(line);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + line, e);
        }
    }

    /** The one stdout line, as JSON. */
    JsonNode json() {
        assertThat(lines()).hasSize(1);
        return lines().get(0);
    }
}
