package dev.sqlguard.app.internal.cli.shell;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The shell's own commands, in psql's spelling ({@code \d}) and the DuckDB CLI's ({@code .tables}):
 * a line that starts with {@code \} or {@code .} where no statement is being typed.
 */
public final class ShellCommands {
    /** What a command does. */
    public enum Kind { QUIT, HELP, TABLES, DESCRIBE, FORMAT, SOURCES, CONNECT, BIND }

    /** One parsed command line: what it does and its arguments. */
    public record Command(Kind kind, String name, List<String> args) {
        public Command {
            args = List.copyOf(args);
        }
    }

    private static final Map<String, Kind> KINDS = Map.ofEntries(
            Map.entry("\\q", Kind.QUIT), Map.entry(".quit", Kind.QUIT), Map.entry(".exit", Kind.QUIT),
            Map.entry("\\?", Kind.HELP), Map.entry("\\h", Kind.HELP), Map.entry(".help", Kind.HELP),
            Map.entry("\\dt", Kind.TABLES), Map.entry(".tables", Kind.TABLES),
            Map.entry("\\d", Kind.DESCRIBE), Map.entry(".schema", Kind.DESCRIBE),
            Map.entry("\\format", Kind.FORMAT), Map.entry("\\pset", Kind.FORMAT), Map.entry(".mode", Kind.FORMAT),
            Map.entry("\\sources", Kind.SOURCES), Map.entry(".databases", Kind.SOURCES),
            Map.entry("\\c", Kind.CONNECT), Map.entry("\\connect", Kind.CONNECT), Map.entry(".open", Kind.CONNECT),
            Map.entry("\\bind", Kind.BIND));

    /** The command names, for completion. */
    public static final List<String> NAMES = KINDS.keySet().stream().sorted().toList();

    /** What {@code \?} prints. */
    public static final String HELP = String.join("\n",
            "Type SQL and end it with ; (a statement may span lines). Every query goes through the same checks,",
            "limits, redaction and audit as `sqlguard query`.",
            "  \\dt, .tables              the allowlisted tables of the source",
            "  \\d [TABLE], .schema [T]   the allowlisted columns of TABLE (of every table without one)",
            "  \\format FMT, .mode FMT    output: table, json, csv, tsv or markdown (\\pset format FMT too)",
            "  \\bind V1 V2 ...           parameters for the next statement's ? (typed like --param)",
            "  \\sources, .databases      the configured sources",
            "  \\c SOURCE                 switch to another source",
            "  \\?, .help                 this help",
            "  \\q, .quit, exit, Ctrl-D   leave",
            "At a terminal: Tab completes table and column names, Up/Down and Ctrl-R search the history,",
            "Ctrl-C stops a running query (or drops the statement being typed).",
            "");

    private ShellCommands() {
    }

    /** Whether {@code line} (no statement being typed) is a shell command rather than SQL. */
    public static boolean isCommand(String line) {
        String t = line.strip();
        String lower = t.toLowerCase(Locale.ROOT);
        return t.startsWith("\\") || t.startsWith(".") || lower.equals("exit") || lower.equals("quit")
                || lower.equals("help") || lower.equals("exit;") || lower.equals("quit;");
    }

    /**
     * The command on {@code line}, or null when its name is unknown. Arguments are split on blanks; a
     * trailing {@code ;} is dropped ({@code \d claims;}).
     */
    public static Command parse(String line) {
        String t = line.strip();
        while (t.endsWith(";")) {
            t = t.substring(0, t.length() - 1).strip();
        }
        String[] parts = t.isEmpty() ? new String[0] : t.split("\\s+");
        if (parts.length == 0) {
            return null;
        }
        String name = parts[0].toLowerCase(Locale.ROOT);
        List<String> args = new ArrayList<>(List.of(parts).subList(1, parts.length));
        Kind kind = switch (name) {
            case "exit", "quit" -> Kind.QUIT;
            case "help" -> Kind.HELP;
            default -> KINDS.get(name);
        };
        if (kind == Kind.FORMAT && name.equals("\\pset")) {
            if (args.isEmpty() || !args.get(0).equalsIgnoreCase("format")) {
                return null;
            }
            args.remove(0);
        }
        return kind == null ? null : new Command(kind, name, args);
    }
}
