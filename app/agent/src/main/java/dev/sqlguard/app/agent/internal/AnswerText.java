package dev.sqlguard.app.agent.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sqlguard.app.tools.internal.AgentJson;
import dev.sqlguard.app.tools.internal.ArgSchema;

/**
 * Splits a model's final message into answer text and key findings. Accepted forms: a JSON object
 * {@code {"answer": "...", "key_findings": ["..."]}}, or plain text where a line
 * {@code Key findings:} starts a list of {@code - } / {@code * } / {@code 1.} items.
 */
public record AnswerText(String answer, List<String> findings) {
    private static final Pattern HEADER = Pattern.compile("(?i)^[#*\\s]*key\\s+findings\\s*[:*]*\\s*$");
    private static final Pattern ITEM = Pattern.compile("^\\s*(?:[-*\u2022]|\\d{1,2}[.)])\\s+(.+)$");
    static final int MAX_FINDINGS = 20;

    public AnswerText {
        findings = List.copyOf(findings);
    }

    /** The whole text that claims are checked in: the answer and every finding. */
    public String verifiableText() {
        return findings.isEmpty() ? answer : answer + "\n" + String.join("\n", findings);
    }

    public static AnswerText parse(String content) {
        String text = content.strip();
        if (text.startsWith("{")) {
            try {
                JsonNode node = AgentJson.parseArguments(text);
                if (node.isObject() && node.path("answer").isTextual()) {
                    List<String> findings = new ArrayList<>();
                    for (JsonNode f : node.path("key_findings")) {
                        if (f.isTextual() && findings.size() < MAX_FINDINGS) {
                            findings.add(f.textValue().strip());
                        }
                    }
                    return new AnswerText(node.get("answer").textValue().strip(), findings);
                }
            } catch (ArgSchema.InvalidArgumentException e) {
                // not JSON after all: plain text
            }
        }
        String[] lines = text.split("\\R");
        int header = -1;
        for (int i = 0; i < lines.length; i++) {
            if (HEADER.matcher(lines[i]).matches()) {
                header = i;
                break;
            }
        }
        if (header < 0) {
            return new AnswerText(text, List.of());
        }
        StringBuilder answer = new StringBuilder();
        for (int i = 0; i < header; i++) {
            answer.append(lines[i]).append('\n');
        }
        List<String> findings = new ArrayList<>();
        StringBuilder rest = new StringBuilder();
        for (int i = header + 1; i < lines.length; i++) {
            Matcher m = ITEM.matcher(lines[i]);
            if (m.matches() && findings.size() < MAX_FINDINGS) {
                findings.add(m.group(1).strip());
            } else if (!lines[i].isBlank()) {
                rest.append(lines[i]).append('\n');
            }
        }
        String body = (answer.toString().strip() + "\n" + rest.toString().strip()).strip();
        return new AnswerText(body, findings);
    }
}
