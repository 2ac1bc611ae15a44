package dev.sqlguard.jdbc.ansi;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;

import dev.sqlguard.domain.CostClass;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.ColumnInfo;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.TableInfo;
import net.sf.jsqlparser.expression.DateTimeLiteralExpression.DateTime;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.IntervalExpression;

/**
 * A minimal ANSI engine: the interface's defaults for every construct; with the policy and the
 * schema the kit's tests check statements against.
 */
class MinimalDialect implements AnsiDialect {
    /** Table {@code s.claims} with {@code id} and {@code region} allowlisted ({@code ssn} exists, hidden). */
    static final GuardrailPolicy POLICY = new GuardrailPolicy(TableAllowlist.of(Optional.of("s"),
            Map.of("claims", List.of("id", "region"))), Set.of(), Set.of(), Set.of(), Limits.defaults())
            .withFunctions(Set.of("count", "upper", "coalesce", "abs"));
    static final SchemaSnapshot SCHEMA = SchemaSnapshot.of("s", List.of(new TableInfo("s", "claims",
            List.of(new ColumnInfo("id", "integer"), new ColumnInfo("region", "text"), new ColumnInfo("ssn", "text")), OptionalLong.empty())));

    private static final FunctionRules RULES = new FunctionRules("Minimal", Map.of("count", CostClass.TOTAL, "upper", CostClass.TOTAL,
            "coalesce", CostClass.TOTAL, "abs", CostClass.PARTIAL), Set.of("sleep"), Set.of("pg_"), Set.of("read_file"), Set.of(),
            Set.of("coalesce"), Set.of("count"), Set.of(), Map.of(), Map.of());

    private static final Lexicon LEXICON = new Lexicon("Minimal", new AnsiNames(63, AnsiNames.Folding.UNQUOTED), RULES,
            Optional.empty(), Set.of("information_schema"), Set.of("current_user"), Set.of(),
            Set.of("left", "right", "join", "natural", "cross"), Set.of("year"), "EXTRACT supports YEAR.",
            Map.of(DateTime.DATE, Pattern.compile("'[0-9]{4}-[0-9]{2}-[0-9]{2}'")),
            new CastTypes("integer|text", Map.of(), "decimal", "No casts but to integer, decimal and text here."));

    @Override
    public Lexicon lexicon() {
        return LEXICON;
    }

    @Override
    public String interval(IntervalExpression e) {
        throw AnsiErrors.construct("No intervals here.");
    }

    @Override
    public String label(Expression e, int position) {
        return "c" + position;
    }

    @Override
    public String limitClause(Long rows, long offset) {
        return (rows == null ? "" : " LIMIT " + rows) + (offset > 0 ? " OFFSET " + offset : "");
    }
}
