package dev.sqlguard.app.internal.config;

import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;

import dev.sqlguard.app.ConfigException;

/**
 * Reads one YAML document into {@link YamlNode}s that remember their line. Syntax errors name the
 * line and column but never quote the file, which may hold secrets.
 */
public final class YamlReader {
    private static final int MAX_DEPTH = 32;
    /** An unquoted empty value is null (so "password:" is an error); an explicit empty string stays one. */
    private static final YAMLFactory FACTORY = YAMLFactory.builder().enable(YAMLParser.Feature.EMPTY_STRING_AS_NULL).build();

    private YamlReader() {
    }

    public static YamlNode read(Reader reader, String fileName) {
        try (JsonParser parser = FACTORY.createParser(reader)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                throw new ConfigException(fileName + ": the file is empty; it needs a 'sources' section.");
            }
            YamlNode root = value(parser, first, fileName, 0);
            if (parser.nextToken() != null) {
                throw new ConfigException(fileName + ": line " + line(parser.currentTokenLocation())
                        + ": only one YAML document is allowed.");
            }
            return root;
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
            throw new ConfigException(fileName + ": invalid YAML syntax" + where + "." + hint(e));
        } catch (IOException e) {
            throw new ConfigException(fileName + ": the file could not be read.");
        }
    }

    /**
     * A hint for the one syntax error people make most: a bare {@code *} (every column) starts a YAML
     * alias. SnakeYAML's own message quotes the file, so only its fixed wording is looked at.
     */
    private static String hint(JsonProcessingException e) {
        String message = e.getOriginalMessage();
        if (message != null && (message.startsWith("while scanning an alias") || message.startsWith("while scanning an anchor"))) {
            return " A bare * (or &) starts a YAML alias; for every column, quote it: \"*\".";
        }
        return "";
    }

    private static YamlNode value(JsonParser p, JsonToken token, String fileName, int depth) throws IOException {
        int line = line(p.currentTokenLocation());
        if (depth > MAX_DEPTH) {
            throw new ConfigException(fileName + ": line " + line + ": the YAML is nested too deeply.");
        }
        switch (token) {
            case START_OBJECT: {
                Map<String, YamlNode> map = new LinkedHashMap<>();
                Map<String, Integer> keyLines = new LinkedHashMap<>();
                for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
                    if (t != JsonToken.FIELD_NAME) {
                        throw new ConfigException(fileName + ": line " + line(p.currentTokenLocation()) + ": expected a key.");
                    }
                    String key = p.currentName();
                    int keyLine = line(p.currentTokenLocation());
                    YamlNode child = value(p, p.nextToken(), fileName, depth + 1);
                    if (map.containsKey(key)) {
                        throw new ConfigException(fileName + ": line " + keyLine + ": the key '" + printable(key) + "' appears twice.");
                    }
                    map.put(key, child);
                    keyLines.put(key, keyLine);
                }
                return new YamlNode(YamlNode.Kind.MAP, null, map, keyLines, null, line);
            }
            case START_ARRAY: {
                List<YamlNode> list = new ArrayList<>();
                for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                    list.add(value(p, t, fileName, depth + 1));
                }
                return new YamlNode(YamlNode.Kind.LIST, null, null, null, list, line);
            }
            case VALUE_STRING:
                return new YamlNode(YamlNode.Kind.STRING, p.getText(), null, null, null, line);
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
                return new YamlNode(YamlNode.Kind.NUMBER, p.getText(), null, null, null, line);
            case VALUE_TRUE:
            case VALUE_FALSE:
                return new YamlNode(YamlNode.Kind.BOOLEAN, p.getText(), null, null, null, line);
            case VALUE_NULL:
                return new YamlNode(YamlNode.Kind.NULL, null, null, null, null, line);
            default:
                throw new ConfigException(fileName + ": line " + line + ": unsupported YAML value.");
        }
    }

    private static int line(JsonLocation location) {
        return location == null ? 0 : location.getLineNr();
    }

    /** A key as it may appear in a message: short and printable, else a placeholder. */
    static String printable(String key) {
        if (key == null || key.length() > 64 || !key.chars().allMatch(c -> c >= 0x20 && c < 0x7f)) {
            return "(unprintable key)";
        }
        return key;
    }
}
