package dev.sqlguard.jdbc.ansi;

import static java.util.Objects.requireNonNull;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import net.sf.jsqlparser.statement.create.table.ColDataType;

/**
 * The CAST target types one engine allows, and its name for each: its plain types (some renamed to
 * the engine's own spelling), {@code numeric}/{@code decimal} with an optional precision and scale
 * rendered under the engine's decimal name, and {@code varchar}/{@code char} with an optional length.
 * Any other type, a character set or an array type is refused. Immutable.
 */
public final class CastTypes {
    private final Pattern pattern;
    private final Map<String, String> renamed;
    private final String decimal;
    private final String refusal;

    /**
     * @param plainTypes the plain types as written, lower case, one regular-expression alternation
     *     ({@code "int|integer|bigint"}; a multi-word type with single spaces; no groups)
     * @param renamed the engine's name for a plain type written otherwise
     * @param decimal the engine's name for {@code numeric} and {@code decimal}
     * @param refusal the refusal message for another type, listing the ones allowed
     */
    public CastTypes(String plainTypes, Map<String, String> renamed, String decimal, String refusal) {
        this.pattern = Pattern.compile("(" + requireNonNull(plainTypes, "plainTypes is null") + ")"
                + "|(numeric|decimal)( \\(([0-9]{1,2})(, ?([0-9]{1,2}))?\\))?"
                + "|(varchar|character varying|char|character)( \\(([0-9]{1,5})\\))?");
        this.renamed = Map.copyOf(requireNonNull(renamed, "renamed is null"));
        this.decimal = requireNonNull(decimal, "decimal is null");
        this.refusal = requireNonNull(refusal, "refusal is null");
    }

    /** The engine's name for a CAST target type; refuses ({@code CONSTRUCT_NOT_ALLOWED}) types it does not allow. */
    public String render(ColDataType type) {
        if (type == null || type.getCharacterSet() != null || (type.getArrayData() != null && !type.getArrayData().isEmpty())) {
            throw AnsiErrors.unsafe("cast type");
        }
        StringBuilder name = new StringBuilder(type.getDataType().toLowerCase(Locale.ROOT).strip().replaceAll("\\s+", " "));
        if (type.getArgumentsStringList() != null && !type.getArgumentsStringList().isEmpty()) {
            name.append(" (").append(String.join(", ", type.getArgumentsStringList())).append(')');
        }
        Matcher m = pattern.matcher(name.toString());
        if (!m.matches()) {
            throw AnsiErrors.construct(refusal);
        }
        if (m.group(1) != null) {
            return renamed.getOrDefault(m.group(1), m.group(1));
        }
        if (m.group(2) != null) {
            return decimal + (m.group(4) == null ? "" : "(" + m.group(4) + (m.group(6) == null ? "" : ", " + m.group(6)) + ")");
        }
        String base = m.group(7).startsWith("var") || m.group(7).equals("character varying") ? "varchar" : "char";
        return base + (m.group(9) == null ? "" : "(" + m.group(9) + ")");
    }
}
