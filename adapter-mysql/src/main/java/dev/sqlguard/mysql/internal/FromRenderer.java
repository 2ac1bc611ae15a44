package dev.sqlguard.mysql.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Names;
import dev.sqlguard.domain.Refusals;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.domain.UsePosition;
import dev.sqlguard.mysql.internal.SchemaSnapshot.ColumnInfo;
import dev.sqlguard.mysql.internal.SchemaSnapshot.TableInfo;
import dev.sqlguard.mysql.internal.Scope.RelColumn;
import dev.sqlguard.mysql.internal.Scope.Relation;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.TableFunction;

/**
 * Renders a FROM clause: allowlisted base tables, derived tables, CTE references and joins (inner,
 * left, right, cross, comma, and JOIN without ON), each under an alias sqlguard generates. A base
 * table offers only its allowlisted columns, so a hidden column resolves exactly as a missing one.
 */
@SuppressWarnings({"deprecation", "removal"})
final class FromRenderer {
    private static final Pattern LABEL_UNSAFE = Pattern.compile("[\\p{Cntrl}`\\\\]");

    private final SelectRenderer queries;
    private final SchemaSnapshot schema;
    private final GuardrailPolicy policy;
    private final Facts facts;

    FromRenderer(SelectRenderer queries, SchemaSnapshot schema, GuardrailPolicy policy, Facts facts) {
        this.queries = queries;
        this.schema = schema;
        this.policy = policy;
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
        scope.showAll();
        if (ps.getJoins() != null) {
            for (Join join : ps.getJoins()) {
                out.append(join(join, scope));
            }
        }
        return out.toString();
    }

    private String join(Join join, Scope scope) {
        if (join.isNatural() || join.isSemi() || join.isApply() || join.isStraight() || join.isWindowJoin() || join.isAsOf()
                || join.isGlobal() || join.isAny() || join.isAll() || join.isArray() || join.isFetch() || join.isFull()
                || join.getJoinHint() != null || join.getJoinWindow() != null) {
            throw new GuardException(ErrorCode.JOIN_NOT_ALLOWED,
                    "Only INNER, LEFT, RIGHT and CROSS joins and comma joins are allowed (no NATURAL, FULL or STRAIGHT_JOIN).");
        }
        if (join.getUsingColumns() != null && !join.getUsingColumns().isEmpty()) {
            throw new GuardException(ErrorCode.JOIN_NOT_ALLOWED, "JOIN ... USING is not allowed; use JOIN ... ON.");
        }
        boolean hasOn = join.getOnExpressions() != null && !join.getOnExpressions().isEmpty();
        if (hasOn && join.getOnExpressions().size() != 1) {
            throw new GuardException(ErrorCode.JOIN_NOT_ALLOWED, "A join takes one ON condition.");
        }
        String keyword;
        if (join.isSimple()) {
            if (hasOn) {
                throw new GuardException(ErrorCode.SYNTAX_ERROR, "A comma join takes no ON condition.");
            }
            keyword = ", ";
        } else if (join.isCross()) {
            if (hasOn) {
                throw new GuardException(ErrorCode.SYNTAX_ERROR, "CROSS JOIN takes no ON condition.");
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
        if (!hasOn && (join.isLeft() || join.isRight())) {
            throw new GuardException(ErrorCode.JOIN_NOT_ALLOWED, "LEFT and RIGHT joins need an ON condition.");
        }
        String right = item(join.getRightItem(), scope);
        scope.showAll();
        if (!hasOn) {
            return keyword + right;
        }
        Expression on = join.getOnExpressions().iterator().next();
        Value condition = queries.expressions().render(on, new ExpressionRenderer.Ctx(scope, ExpressionRenderer.Clause.ON, 0));
        facts.use(condition, UsePosition.JOIN);
        return keyword + right + " ON " + condition.sql();
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
        String name = SqlText.unquote(table.getName());
        Optional<String> schemaName = table.getSchemaName() == null ? Optional.empty() : Optional.of(SqlText.unquote(table.getSchemaName()));
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
        TableRef ref = TableRef.of(schemaName.orElse(schema.defaultSchema()), name);
        TableRef policyRef = schemaName.isPresent() ? TableRef.of(schemaName.get(), name) : TableRef.of(name);
        boolean allowed = policy.tables().restricted() && (policy.tables().allowsTable(policyRef) || policy.tables().allowsTable(ref));
        Optional<TableInfo> found = schema.find(schemaName, name);
        if (!allowed || found.isEmpty()) {
            throw Refusals.unknownTable(schemaName.map(s -> s + ".").orElse("") + name);
        }
        TableInfo info = found.get();
        TableRef shown = Names.fold(info.schema()).equals(Names.fold(schema.defaultSchema())) ? TableRef.of(info.name()) : info.ref();
        List<RelColumn> columns = new ArrayList<>();
        for (ColumnInfo c : info.columns()) {
            if (policy.tables().allowsColumn(shown, c.name()) || policy.tables().allowsColumn(info.ref(), c.name())) {
                columns.add(new RelColumn(c.name(), Value.column(SqlText.identifier(alias) + "." + SqlText.identifier(c.name()),
                        new ColumnRef(info.ref(), c.name()))));
            }
        }
        String visible = table.getAlias() != null ? alias(table.getAlias()) : info.name();
        scope.addRelation(new Relation(visible, table.getAlias() == null ? Optional.of(info.schema()) : Optional.empty(), columns));
        facts.table(info.ref());
        return SqlText.identifier(info.schema()) + "." + SqlText.identifier(info.name()) + " AS " + SqlText.identifier(alias);
    }

    private String cteReference(Scope.Cte cte, String name, Alias given, String alias, Scope scope) {
        List<RelColumn> columns = new ArrayList<>();
        for (int i = 0; i < cte.columnNames().size(); i++) {
            String column = cte.columnNames().get(i);
            columns.add(new RelColumn(column, cte.columnValues().get(i).withSql(SqlText.identifier(alias) + "." + SqlText.identifier(column))));
        }
        scope.addRelation(new Relation(given != null ? alias(given) : name, Optional.empty(), columns));
        return SqlText.identifier(cte.renderedName()) + " AS " + SqlText.identifier(alias);
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
            columns.add(new RelColumn(label, q.values().get(i).withSql(SqlText.identifier(alias) + "." + SqlText.identifier(label))));
        }
        scope.addRelation(new Relation(visible, Optional.empty(), columns));
        return "(" + q.sql() + ") AS " + SqlText.identifier(alias);
    }

    static String alias(Alias alias) {
        if (alias.getAliasColumns() != null) {
            throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "Alias column lists are not allowed.");
        }
        return label(alias.getName());
    }

    static String label(String raw) {
        String name = SqlText.unquote(raw);
        if (name.isBlank() || name.length() > 64 || LABEL_UNSAFE.matcher(name).find() || !name.strip().equals(name)) {
            throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED,
                    "An alias must be 1 to 64 printable characters without backticks or surrounding spaces.");
        }
        return name;
    }
}
