package dev.sqlguard.mysql.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.FlowStep;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Names;
import dev.sqlguard.domain.Refusals;
import dev.sqlguard.domain.SafeText;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.domain.UsePosition;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.ColumnInfo;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.TableInfo;
import dev.sqlguard.mysql.internal.Scope.RelColumn;
import dev.sqlguard.mysql.internal.Scope.Relation;
import dev.sqlguard.mysql.internal.Scope.Slot;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.TableFunction;

/**
 * Renders a FROM clause: allowlisted base tables, derived tables, CTE references and joins (inner,
 * left, right, cross, comma, JOIN without ON, USING and NATURAL, the last two rendered as explicit
 * ON conditions), each under an alias sqlguard generates. A base
 * table offers only its allowlisted columns, so a hidden column resolves exactly as a missing one.
 * A table with a row filter or column masks is rendered as the derived table of the caller's rows
 * ({@link GovernedTables}); while any table is governed, catalog relations are refused.
 */
@SuppressWarnings({"deprecation", "removal"})
final class FromRenderer {
    private static final Pattern LABEL_UNSAFE = Pattern.compile("[\\p{Cntrl}`\\\\]");

    private final SelectRenderer queries;
    private final SchemaSnapshot schema;
    private final GuardrailPolicy policy;
    private final GovernedTables governed;
    /** Table and schema names are written as the server spells them ({@link ServerReading#exactTableNames}). */
    private final boolean exactTableNames;
    private final Facts facts;

    FromRenderer(SelectRenderer queries, SchemaSnapshot schema, GuardrailPolicy policy, GovernedTables governed, Facts facts,
            boolean exactTableNames) {
        this.queries = queries;
        this.exactTableNames = exactTableNames;
        this.schema = schema;
        this.policy = policy;
        this.governed = governed;
        this.facts = facts;
    }

    /** The rendered FROM clause (without the keyword), or null when there is none. */
    String render(PlainSelect ps, Scope scope) {
        FromItem first = ps.getFromItem();
        if (first == null) {
            if (ps.getJoins() != null && !ps.getJoins().isEmpty()) {
                throw new GuardException(ErrorCode.SYNTAX_ERROR, "A join needs a FROM clause.");
            }
            return null;
        }
        StringBuilder out = new StringBuilder(item(first, scope));
        scope.startGroup(scope.slots(scope.relations().size() - 1));
        scope.showAll();
        if (ps.getJoins() != null) {
            for (Join join : ps.getJoins()) {
                out.append(join(join, scope));
            }
        }
        return out.toString();
    }

    private String join(Join join, Scope scope) {
        if (join.isSemi() || join.isApply() || join.isStraight() || join.isWindowJoin() || join.isAsOf()
                || join.isGlobal() || join.isAny() || join.isAll() || join.isArray() || join.isFetch() || join.isFull()
                || join.getJoinHint() != null || join.getJoinWindow() != null) {
            throw new GuardException(ErrorCode.JOIN_NOT_ALLOWED,
                    "Only INNER, LEFT, RIGHT, CROSS and NATURAL joins and comma joins are allowed (no FULL or STRAIGHT_JOIN).");
        }
        boolean natural = join.isNatural();
        boolean using = join.getUsingColumns() != null && !join.getUsingColumns().isEmpty();
        boolean hasOn = join.getOnExpressions() != null && !join.getOnExpressions().isEmpty();
        if (hasOn && join.getOnExpressions().size() != 1) {
            throw new GuardException(ErrorCode.JOIN_NOT_ALLOWED, "A join takes one ON condition.");
        }
        if ((natural || using) && (hasOn || natural && using)) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "A join takes one of ON, USING and NATURAL.");
        }
        String keyword;
        if (join.isSimple()) {
            if (hasOn || using || natural) {
                throw new GuardException(ErrorCode.SYNTAX_ERROR, "A comma join takes no ON or USING condition.");
            }
            keyword = ", ";
        } else if (join.isCross()) {
            if (hasOn || using || natural) {
                throw new GuardException(ErrorCode.SYNTAX_ERROR, "CROSS JOIN takes no ON or USING condition.");
            }
            keyword = " CROSS JOIN ";
        } else if (join.isLeft()) {
            keyword = " LEFT JOIN ";
        } else if (join.isRight()) {
            keyword = " RIGHT JOIN ";
        } else if (join.isOuter()) {
            throw new GuardException(ErrorCode.JOIN_NOT_ALLOWED, "Write LEFT JOIN or RIGHT JOIN.");
        } else {
            keyword = " INNER JOIN ";
        }
        if (!hasOn && !using && !natural && (join.isLeft() || join.isRight())) {
            throw new GuardException(ErrorCode.JOIN_NOT_ALLOWED, "LEFT and RIGHT joins need an ON or USING condition.");
        }
        if (hasOn || using || natural) {
            queries.condition();
        }
        List<Slot> left = scope.currentGroup();
        String right = item(join.getRightItem(), scope);
        List<Slot> rightSlots = scope.slots(scope.relations().size() - 1);
        if (join.isSimple()) {
            // a comma binds looser than JOIN: what follows is a new group, the left operand of later joins
            scope.startGroup(rightSlots);
            scope.showAll();
            return keyword + right;
        }
        if (natural || using) {
            String on = merge(left, rightSlots, natural ? Optional.empty() : Optional.of(join.getUsingColumns()), join.isRight(), scope);
            scope.showAll();
            return keyword + right + " ON " + on;
        }
        List<Slot> joined = new ArrayList<>(left);
        joined.addAll(rightSlots);
        scope.replaceGroup(joined);
        scope.showAll();
        if (!hasOn) {
            return keyword + right;
        }
        Expression on = join.getOnExpressions().iterator().next();
        Value condition = queries.expressions().render(on, new ExpressionRenderer.Ctx(scope, ExpressionRenderer.Clause.ON, 0));
        facts.use(condition, UsePosition.JOIN);
        return keyword + right + " ON " + condition.sql();
    }

    /**
     * {@code USING (columns)} or {@code NATURAL}, rendered as what the server makes of it: an {@code ON}
     * that compares the common columns, fully qualified, and one merged column per common name, which
     * {@code *} lists first and an unqualified name means (the left side's value for INNER and LEFT
     * joins, the right side's for RIGHT joins). The left operand is the current FROM group only (a comma
     * binds looser than JOIN). A common name that is hidden on either side is refused without naming it:
     * the server would join on it, and dropping it would join differently.
     *
     * @return the rendered ON condition
     */
    private String merge(List<Slot> left, List<Slot> right, Optional<List<Column>> usingColumns, boolean rightJoin, Scope scope) {
        List<String> keys = new ArrayList<>();
        if (usingColumns.isPresent()) {
            for (Column c : usingColumns.get()) {
                if (c.getClass() != Column.class || (c.getTable() != null && c.getTable().getName() != null)) {
                    throw new GuardException(ErrorCode.SYNTAX_ERROR, "USING lists column names without a table.");
                }
                String name = MySqlQuoting.unquote(c.getColumnName());
                String key = Names.fold(name);
                if (keys.contains(key)) {
                    throw new GuardException(ErrorCode.SYNTAX_ERROR, "USING names the column " + SafeText.identifier(name) + " twice.");
                }
                List<Slot> l = withKey(left, key);
                if (withKey(right, key).stream().noneMatch(s -> !s.hidden()) || l.stream().noneMatch(s -> !s.hidden())) {
                    throw Refusals.unknownColumn(name);
                }
                if (l.stream().anyMatch(Slot::hidden)) {
                    throw hiddenCommonColumn();
                }
                if (l.size() > 1) {
                    throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, "The column " + SafeText.identifier(name)
                            + " is in more than one table on the left of USING; write JOIN ... ON with qualified columns.");
                }
                keys.add(key);
            }
        } else {
            // a hidden column is absent: NATURAL joins on the names both sides show, as if it did not exist
            for (Slot s : left) {
                if (!keys.contains(s.key()) && !s.hidden() && withKey(right, s.key()).stream().anyMatch(r -> !r.hidden())) {
                    keys.add(s.key());
                }
            }
            for (String key : keys) {
                if (withKey(left, key).stream().anyMatch(Slot::hidden) || withKey(right, key).stream().anyMatch(Slot::hidden)) {
                    throw hiddenCommonColumn();
                }
                if (withKey(left, key).size() > 1) {
                    throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, "The column " + SafeText.identifier(withKey(left, key).get(0).name())
                            + " is in more than one table on the left of NATURAL JOIN; write JOIN ... ON with qualified columns.");
                }
            }
        }
        // merged columns come first, in the order of the side whose values they take (measured on MariaDB 10.11)
        List<Slot> first = rightJoin ? right : left;
        List<Slot> second = rightJoin ? left : right;
        List<Slot> merged = new ArrayList<>();
        List<String> conditions = new ArrayList<>();
        int index = scope.relations().size() - 1;
        for (Slot s : first) {
            if (!keys.contains(s.key())) {
                continue;
            }
            Value primary = s.value().orElseThrow();
            Value other = withKey(second, s.key()).get(0).value().orElseThrow();
            Value l = rightJoin ? other : primary;
            Value r = rightJoin ? primary : other;
            Value condition = Value.combine("(" + l.sql() + " = " + r.sql() + ")", FlowStep.partial("="), List.of(l, r));
            facts.use(condition, UsePosition.JOIN);
            conditions.add(condition.sql());
            merged.add(new Slot(s.name(), Optional.of(Value.combine(primary.sql(), null, List.of(primary, other))), index));
        }
        List<Slot> joined = new ArrayList<>(merged);
        first.stream().filter(s -> !keys.contains(s.key())).forEach(joined::add);
        second.stream().filter(s -> !keys.contains(s.key())).forEach(joined::add);
        scope.replaceGroup(joined);
        if (conditions.isEmpty()) {
            return "TRUE";
        }
        return conditions.size() == 1 ? conditions.get(0) : "(" + String.join(" AND ", conditions) + ")";
    }

    private static List<Slot> withKey(List<Slot> slots, String key) {
        return slots.stream().filter(s -> s.key().equals(key)).toList();
    }

    private static GuardException hiddenCommonColumn() {
        // never name the column: its existence is all the model may learn, and only that it is not allowlisted
        return new GuardException(ErrorCode.JOIN_NOT_ALLOWED, "This NATURAL JOIN or USING would also join on a column that is not"
                + " allowlisted on this source; write JOIN ... ON with the allowlisted columns you mean.");
    }

    private String item(FromItem item, Scope scope) {
        if (item instanceof TableFunction) {
            throw new GuardException(ErrorCode.TABLE_FUNCTION_NOT_ALLOWED, "Table functions are not allowed on this source.");
        }
        if (item != null && item.getClass() == ParenthesedSelect.class) {
            return derived((ParenthesedSelect) item, scope);
        }
        if (!(item instanceof Table table) || item.getClass() != Table.class) {
            throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "Only allowlisted tables, CTEs and subqueries may appear in FROM and JOIN.");
        }
        if (table.getNameParts().size() > 2) {
            throw Refusals.unknownTable(table.getFullyQualifiedName());
        }
        if (table.getIndexHint() != null || table.getSqlServerHints() != null || table.getPivot() != null
                || table.getUnPivot() != null || table.getSampleClause() != null || table.getTimeTravel() != null
                || table.getTimeTravelStrAfterAlias() != null || table.getFullyQualifiedName().indexOf('@') >= 0 || table.isTableVariable()) {
            throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "Table hints, samples and similar table clauses are not allowed.");
        }
        String name = MySqlQuoting.unquote(table.getName());
        Optional<String> schemaName = table.getSchemaName() == null ? Optional.empty() : Optional.of(MySqlQuoting.unquote(table.getSchemaName()));
        if (name.indexOf('.') >= 0 || schemaName.map(s -> s.indexOf('.') >= 0).orElse(false)) {
            throw Refusals.unknownTable(name);
        }
        String alias = "t" + queries.nextAlias();
        if (schemaName.isEmpty()) {
            Optional<Scope.Cte> cte = scope.cte(name);
            if (cte.isPresent()) {
                return cteReference(cte.get(), name, table.getAlias(), alias, scope);
            }
        }
        governed.checkNotCatalog(schemaName.orElse(schema.defaultSchema()), name);
        TableRef ref = TableRef.of(schemaName.orElse(schema.defaultSchema()), name);
        TableRef policyRef = schemaName.isPresent() ? TableRef.of(schemaName.get(), name) : TableRef.of(name);
        boolean allowed = policy.tables().restricted() && (policy.tables().allowsTable(policyRef) || policy.tables().allowsTable(ref));
        // where the server compares table names exactly, a name in another case is another (unknown) table
        Optional<TableInfo> found = schema.find(schemaName, name)
                .filter(t -> !exactTableNames || (t.name().equals(name) && schemaName.map(t.schema()::equals).orElse(true)));
        if (!allowed || found.isEmpty()) {
            throw Refusals.unknownTable(schemaName.map(s -> s + ".").orElse("") + name);
        }
        TableInfo info = found.get();
        TableRef shown = Names.fold(info.schema()).equals(Names.fold(schema.defaultSchema())) ? TableRef.of(info.name()) : info.ref();
        List<RelColumn> columns = new ArrayList<>();
        List<String> hidden = new ArrayList<>();
        for (ColumnInfo c : info.columns()) {
            if (policy.tables().allowsColumn(shown, c.name()) || policy.tables().allowsColumn(info.ref(), c.name())) {
                columns.add(new RelColumn(c.name(), Value.column(MySqlQuoting.identifier(alias) + "." + MySqlQuoting.identifier(c.name()),
                        new ColumnRef(info.ref(), c.name()))));
            } else {
                hidden.add(c.name());
            }
        }
        String visible = table.getAlias() != null ? alias(table.getAlias()) : info.name();
        scope.addRelation(new Relation(visible, table.getAlias() == null ? Optional.of(info.schema()) : Optional.empty(), columns, hidden));
        facts.table(info.ref());
        // a governed table is the derived table of the caller's rows under the same alias: every column the
        // query names is qualified by that alias, so it reads only those rows, masked
        return governed.source(info) + " AS " + MySqlQuoting.identifier(alias);
    }

    private String cteReference(Scope.Cte cte, String name, Alias given, String alias, Scope scope) {
        List<RelColumn> columns = new ArrayList<>();
        for (int i = 0; i < cte.columnNames().size(); i++) {
            String column = cte.columnNames().get(i);
            columns.add(new RelColumn(column, cte.columnValues().get(i).withSql(MySqlQuoting.identifier(alias) + "." + MySqlQuoting.identifier(column))));
        }
        scope.addRelation(Relation.derived(given != null ? alias(given) : name, columns, cte.mergedNames()));
        return MySqlQuoting.identifier(cte.renderedName()) + " AS " + MySqlQuoting.identifier(alias);
    }

    private String derived(ParenthesedSelect p, Scope scope) {
        if (p.getAlias() == null) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "Every derived table needs an alias.");
        }
        String visible = alias(p.getAlias());
        String alias = "t" + queries.nextAlias();
        // a derived table does not see the other FROM items of its block (no LATERAL), only enclosing blocks
        SelectRenderer.Query q = queries.derivedQuery(p, scope);
        List<RelColumn> columns = new ArrayList<>();
        for (int i = 0; i < q.labels().size(); i++) {
            String label = q.labels().get(i);
            columns.add(new RelColumn(label, q.values().get(i).withSql(MySqlQuoting.identifier(alias) + "." + MySqlQuoting.identifier(label))));
        }
        scope.addRelation(Relation.derived(visible, columns, q.mergedNames()));
        return "(" + q.sql() + ") AS " + MySqlQuoting.identifier(alias);
    }

    static String alias(Alias alias) {
        if (alias.getAliasColumns() != null) {
            throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "Alias column lists are not allowed.");
        }
        return label(alias.getName());
    }

    static String label(String raw) {
        String name = MySqlQuoting.unquote(raw);
        if (name.isBlank() || name.length() > 64 || LABEL_UNSAFE.matcher(name).find() || !name.strip().equals(name)) {
            throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED,
                    "An alias must be 1 to 64 printable characters without backticks or surrounding spaces.");
        }
        return name;
    }
}
