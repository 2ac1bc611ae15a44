package dev.sqlguard.app.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sqlguard.app.tools.AgentTools;
import dev.sqlguard.app.tools.ToolOutcome;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.ports.model.ToolCall;

/**
 * Arguments the caller has parsed already (the MCP server reads each message once) get exactly the
 * outcome that the same tree written out as text and parsed again by the tools gets, which is what
 * the MCP server did before it passed the tree on.
 */
class ParsedOnceTest {
    /** The MCP server's reader: Jackson's defaults within its bounds (McpStdioServer). */
    private static final ObjectMapper MCP_READER = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(1000).maxStringLength(16 << 20).build())
            .build());
    /** How the MCP server wrote the tree out before. */
    private static final ObjectMapper WRITER = new ObjectMapper();

    @TempDir
    Path charts;

    static Stream<String> arguments() {
        String deep32 = "[".repeat(31) + "1" + "]".repeat(31);
        String deep33 = "[".repeat(32) + "1" + "]".repeat(32);
        return Stream.of(
                "null",
                "{}",
                "[1,2]",
                "\"text\"",
                "{\"source\":\"claims_db\",\"sql\":\"SELECT count(*) AS n FROM claims WHERE amount > ?\",\"params\":[0.1]}",
                "{\"source\":\"claims_db\",\"sql\":\"SELECT count(*) AS n FROM claims WHERE amount > ?\",\"params\":[1.50]}",
                "{\"source\":\"claims_db\",\"sql\":\"SELECT count(*) AS n FROM claims WHERE amount > ?\",\"params\":[1e400]}",
                "{\"source\":\"claims_db\",\"sql\":\"SELECT count(*) AS n FROM claims WHERE amount > ?\",\"params\":[1.0000000000000000001]}",
                "{\"source\":\"claims_db\",\"sql\":\"SELECT count(*) AS n FROM claims WHERE amount > ?\",\"params\":[" + "9".repeat(100) + "]}",
                "{\"source\":\"claims_db\",\"sql\":\"SELECT count(*) AS n FROM claims WHERE amount > ?\",\"params\":[" + "9".repeat(101) + "]}",
                "{\"source\":\"claims_db\",\"sql\":\"SELECT 1\",\"params\":" + deep32 + "}",
                "{\"source\":\"claims_db\",\"sql\":\"SELECT 1\",\"params\":" + deep33 + "}",
                "{\"source\":\"claims_db\",\"sql\":\"SELECT 1\",\"unknown\":true}",
                "{\"source\":\"claims_db\",\"sql\":\"SELECT '" + "x".repeat(300_000) + "'\"}",
                "{\"source\":\"claims_db\",\"sql\":\"SELECT 1\",\"params\":[\"" + "y".repeat(300_000) + "\"]}",
                "{\"source\":\"claims_db\",\"sql\":\"SELECT 1\",\"source\":\"other\"}");
    }

    @ParameterizedTest
    @MethodSource("arguments")
    void aParsedTreeGetsTheOutcomeOfItsText(String text) throws Exception {
        AgentTools tools = AgentFixtures.tools(new QueryService(new AgentFixtures.RecordingAudit()), charts);
        JsonNode tree = MCP_READER.readTree(text);
        String written = tree == null || tree.isNull() ? "{}" : WRITER.writeValueAsString(tree);

        ToolOutcome before = tools.call(new ToolCall("c-1", AgentTools.QUERY_DATA, written));
        ToolOutcome now = tools.call("c-2", AgentTools.QUERY_DATA, tree);

        assertThat(now.status()).isEqualTo(before.status());
        assertThat(now.error()).isEqualTo(before.error());
        assertThat(now.results()).hasSameSizeAs(before.results());
        for (int i = 0; i < now.results().size(); i++) {
            ToolResult a = before.results().get(i);
            ToolResult b = now.results().get(i);
            assertThat(b.sql()).isEqualTo(a.sql());
            assertThat(b.columns()).isEqualTo(a.columns());
            assertThat(b.rows()).isEqualTo(a.rows());
        }
        assertThat(List.of(now.shownValues())).isEqualTo(List.of(before.shownValues()));
    }
}
