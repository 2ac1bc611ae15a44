package dev.sqlguard.app.internal.cli.shell;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;

import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.LineReader;
import org.jline.reader.ParsedLine;

import dev.sqlguard.ports.TableDescription;

/**
 * Tab completion from the current source's allowlisted catalog: table names, column names (after
 * {@code table.}, that table's columns), SQL keywords, and the shell's own commands at the start of
 * a line.
 */
public final class ShellCompleter implements Completer {
    static final List<String> KEYWORDS = List.of("SELECT", "FROM", "WHERE", "GROUP", "BY", "ORDER", "HAVING", "LIMIT",
            "JOIN", "LEFT", "INNER", "ON", "AS", "AND", "OR", "NOT", "IN", "IS", "NULL", "BETWEEN", "LIKE", "DISTINCT",
            "COUNT", "SUM", "AVG", "MIN", "MAX", "ROUND", "CASE", "WHEN", "THEN", "ELSE", "END", "WITH", "UNION", "DESC",
            "ASC", "CAST");

    private final Supplier<List<TableDescription>> catalog;

    public ShellCompleter(Supplier<List<TableDescription>> catalog) {
        this.catalog = catalog;
    }

    @Override
    public void complete(LineReader reader, ParsedLine line, List<Candidate> candidates) {
        for (String text : candidates(line.line(), line.word(), line.wordIndex())) {
            candidates.add(new Candidate(text, text, null, null, null, null, !text.endsWith(".")));
        }
    }

    /** What may replace {@code word}, the {@code index}-th word of {@code line}. */
    public List<String> candidates(String line, String word, int index) {
        Set<String> out = new LinkedHashSet<>();
        if (index == 0 && (word.startsWith("\\") || word.startsWith("."))) {
            out.addAll(ShellCommands.NAMES);
            return filter(out, word);
        }
        List<TableDescription> tables = catalog.get();
        int dot = word.lastIndexOf('.');
        if (dot > 0) {
            String qualifier = word.substring(0, dot);
            boolean known = false;
            for (TableDescription t : tables) {
                if (t.table().table().equalsIgnoreCase(qualifier) || t.table().qualifiedName().equalsIgnoreCase(qualifier)) {
                    known = true;
                    t.columns().forEach(c -> out.add(qualifier + "." + c.name()));
                }
            }
            if (!known) {
                // an alias: any column may follow it
                tables.forEach(t -> t.columns().forEach(c -> out.add(qualifier + "." + c.name())));
            }
            return filter(out, word);
        }
        for (TableDescription t : tables) {
            out.add(t.table().qualifiedName());
        }
        for (TableDescription t : tables) {
            t.columns().forEach(c -> out.add(c.name()));
        }
        boolean lower = !word.isEmpty() && Character.isLowerCase(word.charAt(0));
        for (String keyword : KEYWORDS) {
            out.add(lower ? keyword.toLowerCase(Locale.ROOT) : keyword);
        }
        return filter(out, word);
    }

    private static List<String> filter(Set<String> names, String word) {
        String prefix = word.toLowerCase(Locale.ROOT);
        List<String> out = new ArrayList<>();
        for (String name : names) {
            if (name.toLowerCase(Locale.ROOT).startsWith(prefix)) {
                out.add(name);
            }
        }
        return out;
    }
}
