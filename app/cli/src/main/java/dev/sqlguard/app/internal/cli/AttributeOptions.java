package dev.sqlguard.app.internal.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.sqlguard.app.CallerAttributes;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The caller's attributes, which the sources' row filters bind ({@code policy.rows}, {@code :tenant}):
 * each {@code --attribute NAME=VALUE}, and each environment variable
 * {@code SQLGUARD_ATTRIBUTE_<NAME>} (the name is the rest of the variable's name, in lower case). For
 * the MCP server they are fixed for the process: no client can set or change them. A name given twice,
 * or both ways with different values, is a usage error: which one applies would be a guess.
 */
final class AttributeOptions {
    /** The prefix of the environment variables that give attributes. */
    static final String ENV_PREFIX = "SQLGUARD_ATTRIBUTE_";

    @Option(names = "--attribute", paramLabel = "NAME=VALUE",
            description = "A caller attribute that row filters bind (policy.rows, :NAME), repeatable, e.g. --attribute tenant=acme. "
                    + "Also read from environment variables " + ENV_PREFIX + "<NAME>.")
    List<String> attributes = new ArrayList<>();

    /**
     * The attributes of this command line and environment, names in lower case.
     *
     * @throws ParameterException for a malformed or conflicting attribute (exit 2)
     */
    Map<String, String> resolve(CommandSpec spec, Map<String, String> env) {
        Map<String, String> out = new TreeMap<>();
        Map<String, String> from = new TreeMap<>();
        for (String given : attributes) {
            int eq = given.indexOf('=');
            if (eq < 0) {
                throw new ParameterException(spec.commandLine(),
                        "--attribute " + TableResultPrinter.clean(given) + ": expected NAME=VALUE, e.g. --attribute tenant=acme.");
            }
            String name = checkedName(spec, given.substring(0, eq), "--attribute");
            put(spec, out, from, name, given.substring(eq + 1), "--attribute " + name);
        }
        for (Map.Entry<String, String> e : new TreeMap<>(env).entrySet()) {
            if (e.getKey().startsWith(ENV_PREFIX)) {
                String variable = e.getKey();
                String name = checkedName(spec, variable.substring(ENV_PREFIX.length()), "environment variable " + variable);
                String value = e.getValue();
                String earlier = out.get(name);
                if (earlier != null && earlier.equals(value)) {
                    continue;
                }
                put(spec, out, from, name, value, "environment variable " + variable);
            }
        }
        try {
            return CallerAttributes.checked(out);
        } catch (IllegalArgumentException e) {
            String name = e.getMessage().replaceAll("^attribute '([^']*)'.*$", "$1");
            throw new ParameterException(spec.commandLine(), from.getOrDefault(name, "--attribute") + ": " + e.getMessage() + ".");
        }
    }

    private static String checkedName(CommandSpec spec, String name, String where) {
        try {
            return CallerAttributes.name(name);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), where + ": " + e.getMessage() + ".");
        }
    }

    private static void put(CommandSpec spec, Map<String, String> out, Map<String, String> from, String name, String value,
                            String where) {
        if (out.containsKey(name)) {
            throw new ParameterException(spec.commandLine(), where + ": the attribute '" + name + "' is already given by "
                    + from.get(name) + "; give it once.");
        }
        out.put(name, value);
        from.put(name, where);
    }
}
