package dev.sqlguard.app.internal.config;

import java.util.Locale;

import dev.sqlguard.app.ConfigException;
import dev.sqlguard.app.SqlGuardConfig;
import dev.sqlguard.app.SqlGuardConfig.SourceConfig;
import dev.sqlguard.domain.GuardException;

/** Where in the configuration file an engine's refusal of a source's configuration points. */
public final class ConfigErrorLocator {
    private ConfigErrorLocator() {
    }

    /**
     * The engine's refusal of its configuration, for the operator: with the file, line and key
     * path the message points at (a property it quotes, else the function list it names, else an
     * allowlisted table it names, else the source), when the source came from a file.
     */
    public static ConfigException located(SourceConfig config, GuardException e) {
        String message = e.safeMessage();
        if (config.origin().isEmpty()) {
            return new ConfigException("source '" + config.id() + "': " + message);
        }
        String key = "";
        for (String property : config.properties().keySet()) {
            if (message.contains("'" + property + "'")) {
                key = property;
            }
        }
        for (String list : new String[] {"policy.functions", "policy.tableFunctions"}) {
            // the domain's refusal of a function list names the list (FunctionConfiguration.require)
            if (key.isEmpty() && message.contains(": " + list + " lists ")) {
                key = list;
            }
        }
        if (key.isEmpty()) {
            String lower = message.toLowerCase(Locale.ROOT);
            // a row filter's or a mask's failed check names its table: point at that entry, else at the allowlist's
            String section = lower.contains("filter") ? "policy.rows." : lower.contains("mask") ? "policy.masks." : "policy.tables.";
            key = namedEntry(config, lower, section);
            if (key.isEmpty() && !section.equals("policy.tables.")) {
                key = namedEntry(config, lower, "policy.tables.");
            }
        }
        SqlGuardConfig.Origin origin = config.origin().get();
        return new ConfigException(origin.file() + ", line " + origin.lineOf(key) + ", sources." + config.id()
                + (key.isEmpty() ? "" : "." + key) + ": " + message);
    }

    /** The longest key path under {@code section} whose entry (a table, or a table's column) the message names, or "". */
    private static String namedEntry(SourceConfig config, String lowerMessage, String section) {
        String key = "";
        for (String path : config.origin().get().lines().keySet()) {
            if (!path.startsWith(section)) {
                continue;
            }
            String entry = path.substring(section.length()).toLowerCase(Locale.ROOT);
            // a mask's key is table.column: its table is what an engine names
            String table = section.equals("policy.masks.") && entry.contains(".") ? entry.substring(0, entry.lastIndexOf('.')) : entry;
            if (lowerMessage.contains(entry) || lowerMessage.contains(table)) {
                if (path.length() > key.length()) {
                    key = path;
                }
            }
        }
        return key;
    }
}
