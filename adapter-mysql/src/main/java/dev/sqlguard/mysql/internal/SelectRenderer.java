package dev.sqlguard.mysql.internal;

import static java.util.Objects.requireNonNull;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Names;
import dev.sqlguard.domain.OutputColumn;
import dev.sqlguard.domain.SafeText;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.mysql.internal.SchemaSnapshot.ColumnInfo;
import dev.sqlguard.mysql.internal.SchemaSnapshot.TableInfo;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.BooleanValue;
import net.sf.jsqlparser.expression.CaseExpression;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.DateTimeLiteralExpression;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.JdbcNamedParameter;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NextValExpression;
import net.sf.jsqlparser.expression.NotExpression;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.NumericBind;
import net.sf.jsqlparser.expression.Parenthesis;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.TimeKeyExpression;
import net.sf.jsqlparser.expression.UserVariable;
import net.sf.jsqlparser.expression.VariableAssignment;
import net.sf.jsqlparser.expression.WhenClause;
import net.sf.jsqlparser.expression.operators.arithmetic.Addition;
import net.sf.jsqlparser.expression.operators.arithmetic.Division;
import net.sf.jsqlparser.expression.operators.arithmetic.Modulo;
import net.sf.jsqlparser.expression.operators.arithmetic.Multiplication;
import net.sf.jsqlparser.expression.operators.arithmetic.Subtraction;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.conditional.OrExpression;
import net.sf.jsqlparser.expression.operators.conditional.XorExpression;
import net.sf.jsqlparser.expression.operators.relational.Between;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ExistsExpression;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.GreaterThan;
import net.sf.jsqlparser.expression.operators.relational.GreaterThanEquals;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.IsNullExpression;
import net.sf.jsqlparser.expression.operators.relational.LikeExpression;
import net.sf.jsqlparser.expression.operators.relational.MinorThan;
import net.sf.jsqlparser.expression.operators.relational.MinorThanEquals;
import net.sf.jsqlparser.expression.operators.relational.NotEqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.expression.operators.relational.SupportsOldOracleJoinSyntax;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.create.table.ColDataType;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.Distinct;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.GroupByElement;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.Limit;
import net.sf.jsqlparser.statement.select.Offset;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.TableFunction;

/**
 * Checks one parsed {@link PlainSelect} against the policy and renders it back as the only SQL
 * text the server will run. The renderer is an allowlist: it emits a node only when it knows the
 * node's exact meaning on a MySQL-compatible server, fully parenthesised, with backtick-quoted
 * identifiers, its own string escaping, generated table aliases and no comments. A node it does
 * not know is refused ({@code UNSAFE_SYNTAX}); a field of the tree it does not read never reaches
 * the server. Not thread-safe: one instance per validation.
 *
 * <p>Deprecated JSqlParser accessors are read on purpose: a clause the parser still fills must be
 * refused even if the parser plans to drop its accessor.
 */
@SuppressWarnings({"deprecation", "removal"})
final class SelectRenderer {
    /** Functions no policy may enable: files, sleeping, locks, sequences, session and server state. */
    static final Set<String> NEVER_ALLOWED = Set.of(
            "load_file", "sleep", "benchmark", "get_lock", "release_lock", "release_all_locks", "is_free_lock",
            "is_used_lock", "master_pos_wait", "source_pos_wait", "master_gtid_wait", "nextval", "lastval", "setval",
            "sys_exec", "sys_eval", "last_insert_id", "row_count", "found_rows", "connection_id", "current_user",
            "session_user", "system_user", "user", "database", "schema", "version", "uuid_short", "name_const",
            "sys_guid", "json_table", "column_get", "column_json", "wsrep_last_written_gtid", "wsrep_sync_wait_upto_gtid");

    private static final int MAX_EXPRESSION_DEPTH = 64;
    private static final Pattern FUNCTION_NAME = Pattern.compile("[a-z_][a-z0-9_]*");
    private static final Pattern DIGITS = Pattern.compile("[0-9]{1,30}");
    private static final Pattern DECIMAL = Pattern.compile("[0-9]{0,30}(\\.[0-9]{0,30})?([eE][+-]?[0-9]{1,3})?");
    private static final Pattern DATE = Pattern.compile("'[0-9]{4}-[0-9]{2}-[0-9]{2}'");
    private static final Pattern TIME = Pattern.compile("'[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,6})?'");
    private static final Pattern TIMESTAMP = Pattern.compile("'[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,6})?'");
    private static final Pattern LABEL_UNSAFE = Pattern.compile("[\\p{Cntrl}`\\\\]");

    /** The rendering of one statement. */
    record Rendered(String sql, List<OutputColumn> outputs, Set<TableRef> tables, Set<ColumnRef> columns,
                    Set<String> functions, int parameterCount) {
    }

    private enum Clause { SELECT, ON, WHERE, GROUP_BY, HAVING, ORDER_BY }

    /** A table in the FROM clause: the name the query may use for it and the alias sqlguard renders. */
    private record Source(String visibleName, Optional<String> tableName, TableInfo table, String renderedAlias) {
    }

    /** A rendered select item. */
    private record Item(String label, String sql, Set<ColumnRef> lineage, Optional<ColumnRef> bareColumn, boolean hasParameter) {
    }

    private final SchemaSnapshot schema;
    private final GuardrailPolicy policy;
    private final Set<String> functionAllowlist;
    private final Optional<Long> hintMillis;

    private final List<Source> sources = new ArrayList<>();
    private final List<Item> items = new ArrayList<>();
    private final Set<TableRef> tables = new LinkedHashSet<>();
    private final Set<ColumnRef> columns = new LinkedHashSet<>();
    private final Set<String> functions = new LinkedHashSet<>();
    private final List<Integer> parameterIndices = new ArrayList<>();
    /** Parameters of the select list, which the text places before FROM although it is rendered after it. */
    private final List<Integer> selectItemParameters = new ArrayList<>();
    private int visibleSources;
    /** How many operators (comparisons, logic, arithmetic, CASE, ...) enclose the expression being rendered. */
    private int operatorDepth;

    /**
     * @param hintMillis a MAX_EXECUTION_TIME optimizer hint to render (MySQL), or empty (MariaDB
     *     ignores the hint; its limit is the pinned session's {@code max_statement_time})
     */
    SelectRenderer(SchemaSnapshot schema, GuardrailPolicy policy, Set<String> functionAllowlist, Optional<Long> hintMillis) {
        this.schema = requireNonNull(schema, "schema is null");
        this.policy = requireNonNull(policy, "policy is null");
        this.functionAllowlist = Set.copyOf(functionAllowlist);
        this.hintMillis = requireNonNull(hintMillis, "hintMillis is null");
    }

    Rendered render(Select select) {
        if (select.getWithItemsList() != null && !select.getWithItemsList().isEmpty()) {
            throw construct("Common table expressions (WITH) are not allowed on this source.");
        }
        if (!(select instanceof PlainSelect ps) || select.getClass() != PlainSelect.class) {
            throw construct("Only a plain SELECT is allowed: no set operations (UNION, INTERSECT, EXCEPT), VALUES or parenthesised queries.");
        }
        checkSelectLevel(ps);
        checkPlainSelectLevel(ps);

        StringBuilder sql = new StringBuilder("SELECT ");
        hintMillis.ifPresent(ms -> sql.append("/*+ MAX_EXECUTION_TIME(").append(ms).append(") */ "));
        Distinct distinct = ps.getDistinct();
        if (distinct != null) {
            if (distinct.getOnSelectItems() != null || distinct.isUseUnique()) {
                throw construct("Only plain DISTINCT is allowed.");
            }
            sql.append("DISTINCT ");
        }

        // FROM first: select items resolve against it
        String from = from(ps);
        visibleSources = sources.size();

        List<SelectItem<?>> selectItems = ps.getSelectItems();
        if (selectItems == null || selectItems.isEmpty()) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "The SELECT list is empty.");
        }
        int ordinal = 0;
        for (SelectItem<?> item : selectItems) {
            ordinal++;
            items.add(selectItem(item, ordinal));
        }
        if (distinct != null) {
            for (Item item : items) {
                sensitiveSource(item).ifPresent(name -> {
                    throw new GuardException(ErrorCode.COLUMN_NOT_ALLOWED, "Column " + SafeText.identifier(name)
                            + " is sensitive: SELECT DISTINCT over it would reveal how many different values it has; drop DISTINCT"
                            + " or that column.");
                });
            }
        }
        // the select list comes first in the text: record its parameters first
        List<Integer> fromParameters = new ArrayList<>(parameterIndices);
        parameterIndices.clear();
        List<String> rendered = new ArrayList<>();
        for (Item item : items) {
            rendered.add(item.sql() + " AS " + SqlText.identifier(item.label()));
        }
        sql.append(String.join(", ", rendered));
        List<Integer> selectParameters = new ArrayList<>(selectItemParameters);
        parameterIndices.addAll(selectParameters);
        parameterIndices.addAll(fromParameters);
        if (from != null) {
            sql.append(" FROM ").append(from);
        }
        if (ps.getWhere() != null) {
            Set<ColumnRef> ignored = new LinkedHashSet<>();
            sql.append(" WHERE ").append(expr(ps.getWhere(), Clause.WHERE, ignored, 0));
        }
        GroupByElement groupBy = ps.getGroupBy();
        if (groupBy != null) {
            sql.append(" GROUP BY ").append(groupBy(groupBy));
        }
        if (ps.getHaving() != null) {
            Set<ColumnRef> ignored = new LinkedHashSet<>();
            sql.append(" HAVING ").append(expr(ps.getHaving(), Clause.HAVING, ignored, 0));
        }
        List<OrderByElement> orderBy = ps.getOrderByElements();
        if (orderBy != null && !orderBy.isEmpty()) {
            sql.append(" ORDER BY ").append(orderBy(orderBy));
        }
        sql.append(limit(ps));

        checkParameterOrder();
        List<OutputColumn> outputs = new ArrayList<>();
        for (Item item : items) {
            outputs.add(OutputColumn.traced(item.label(), item.lineage()));
        }
        return new Rendered(sql.toString(), outputs, tables, columns, functions, parameterIndices.size());
    }

    // ------------------------------------------------------------------ statement level

    private static void checkSelectLevel(Select s) {
        if (s.getForMode() != null || s.getForUpdateTable() != null || (s.getForUpdateTables() != null && !s.getForUpdateTables().isEmpty())
                || s.getForUpdate() != null || s.getForClause() != null || s.getWait() != null || s.isSkipLocked() || s.isNoWait()) {
            throw construct("Locking clauses (FOR UPDATE, FOR SHARE, LOCK IN SHARE MODE) are not allowed.");
        }
        if (s.getIsolation() != null || s.getOption() != null || s.getLimitBy() != null || s.getFetch() != null
                || (s.getInterpolate() != null && !s.getInterpolate().isEmpty()) || s.getMySqlProcedureAnalyse() != null
                || s.getPivot() != null || s.getUnPivot() != null || s.getAlias() != null || s.isOracleSiblings()) {
            throw construct("The query uses a clause that is not allowed on this source.");
        }
    }

    private static void checkPlainSelectLevel(PlainSelect ps) {
        if (ps.getMySqlSelectIntoClause() != null || (ps.getIntoTables() != null && !ps.getIntoTables().isEmpty())
                || ps.getIntoTempTable() != null) {
            throw new GuardException(ErrorCode.EXTERNAL_ACCESS_DENIED, "SELECT ... INTO (files, variables or tables) is not allowed.");
        }
        if (ps.isUseBrackets()) {
            throw construct("Parenthesised queries are not allowed.");
        }
        if (ps.getTop() != null || ps.getSkip() != null || ps.getFirst() != null || ps.getQualify() != null
                || ps.getPreWhere() != null || ps.getSampleClause() != null
                || (ps.getLateralViews() != null && !ps.getLateralViews().isEmpty())
                || (ps.getWindowDefinitions() != null && !ps.getWindowDefinitions().isEmpty())
                || ps.getOracleHierarchical() != null || ps.getOracleHint() != null || ps.getPreferringClause() != null
                || ps.getKsqlWindow() != null || (ps.getEmitMode() != null && ps.getEmitMode() != PlainSelect.EmitMode.NONE) || ps.isEmitChanges() || ps.getForXmlPath() != null
                || ps.getBigQuerySelectQualifier() != null || (ps.getSettings() != null && !ps.getSettings().isEmpty())
                || ps.getOptimizeFor() != null || ps.getMySqlSqlCalcFoundRows() || ps.getMySqlSqlCacheFlag() != null
                || ps.getMySqlHintStraightJoin() || ps.isUsingFinal() || ps.isUsingOnly() || ps.isUseWithNoLog()) {
            throw construct("The query uses a clause that is not allowed on this source.");
        }
    }

    // ------------------------------------------------------------------ FROM and joins

    private String from(PlainSelect ps) {
        FromItem first = ps.getFromItem();
        if (first == null) {
            if (ps.getJoins() != null && !ps.getJoins().isEmpty()) {
                throw new GuardException(ErrorCode.SYNTAX_ERROR, "A join needs a FROM clause.");
            }
            return null;
        }
        StringBuilder out = new StringBuilder(table(first));
        visibleSources = sources.size();
        if (ps.getJoins() != null) {
            for (Join join : ps.getJoins()) {
                out.append(join(join));
            }
        }
        return out.toString();
    }

    private String join(Join join) {
        if (join.isSimple()) {
            throw new GuardException(ErrorCode.JOIN_NOT_ALLOWED, "Comma joins are not allowed; use JOIN ... ON.");
        }
        if (join.isRight() || join.isFull() || join.isCross() || join.isNatural() || join.isSemi() || join.isApply()
                || join.isStraight() || join.isWindowJoin() || join.isAsOf() || join.isGlobal() || join.isAny()
                || join.isAll() || join.isArray() || join.isFetch() || join.getJoinHint() != null || join.getJoinWindow() != null) {
            throw new GuardException(ErrorCode.JOIN_NOT_ALLOWED, "Only INNER JOIN and LEFT JOIN with an ON condition are allowed.");
        }
        if (join.getUsingColumns() != null && !join.getUsingColumns().isEmpty()) {
            throw new GuardException(ErrorCode.JOIN_NOT_ALLOWED, "JOIN ... USING is not allowed; use JOIN ... ON.");
        }
        if (join.isOuter() && !join.isLeft()) {
            throw new GuardException(ErrorCode.JOIN_NOT_ALLOWED, "Only INNER JOIN and LEFT JOIN with an ON condition are allowed.");
        }
        if (join.getOnExpressions() == null || join.getOnExpressions().size() != 1) {
            throw new GuardException(ErrorCode.JOIN_NOT_ALLOWED, "Every join needs exactly one ON condition.");
        }
        String right = table(join.getRightItem());
        visibleSources = sources.size();
        Set<ColumnRef> ignored = new LinkedHashSet<>();
        String on = expr(join.getOnExpressions().iterator().next(), Clause.ON, ignored, 0);
        return (join.isLeft() ? " LEFT JOIN " : " INNER JOIN ") + right + " ON " + on;
    }

    private String table(FromItem item) {
        if (item instanceof TableFunction) {
            throw new GuardException(ErrorCode.TABLE_FUNCTION_NOT_ALLOWED, "Table functions are not allowed on this source.");
        }
        if (item instanceof Select) {
            throw construct("Subqueries are not allowed on this source.");
        }
        if (!(item instanceof Table table) || item.getClass() != Table.class) {
            throw construct("Only allowlisted tables may appear in FROM and JOIN.");
        }
        if (table.getNameParts().size() > 2) {
            throw tableNotAllowed(table.getFullyQualifiedName());
        }
        if (table.getIndexHint() != null || table.getSqlServerHints() != null || table.getPivot() != null
                || table.getUnPivot() != null || table.getSampleClause() != null || table.getTimeTravel() != null
                || table.getTimeTravelStrAfterAlias() != null || table.getFullyQualifiedName().indexOf('@') >= 0 || table.isTableVariable()) {
            throw construct("Table hints, samples and similar table clauses are not allowed.");
        }
        String name = SqlText.unquote(table.getName());
        Optional<String> schemaName = table.getSchemaName() == null ? Optional.empty() : Optional.of(SqlText.unquote(table.getSchemaName()));
        if (name.indexOf('.') >= 0 || schemaName.map(s -> s.indexOf('.') >= 0).orElse(false)) {
            throw tableNotAllowed(name);
        }
        TableRef ref = TableRef.of(schemaName.orElse(schema.defaultSchema()), name);
        TableRef policyRef = schemaName.isPresent() ? TableRef.of(schemaName.get(), name) : TableRef.of(name);
        boolean allowed = policy.tables().restricted() && (policy.tables().allowsTable(policyRef) || policy.tables().allowsTable(ref));
        Optional<TableInfo> info = schema.find(schemaName, name);
        if (!allowed || info.isEmpty()) {
            throw tableNotAllowed(schemaName.map(s -> s + ".").orElse("") + name);
        }
        String visible = table.getAlias() != null ? alias(table.getAlias().getName(), table.getAlias().getAliasColumns() != null) : info.get().name();
        for (Source s : sources) {
            if (Names.fold(s.visibleName()).equals(Names.fold(visible))) {
                throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, "The name " + SafeText.identifier(visible) + " is used for two tables; give each an alias.");
            }
        }
        String renderedAlias = "t" + (sources.size() + 1);
        sources.add(new Source(visible, table.getAlias() == null ? Optional.of(info.get().name()) : Optional.empty(), info.get(), renderedAlias));
        tables.add(info.get().ref());
        return SqlText.identifier(info.get().schema()) + "." + SqlText.identifier(info.get().name()) + " AS " + SqlText.identifier(renderedAlias);
    }

    private static String alias(String raw, boolean hasColumns) {
        if (hasColumns) {
            throw construct("Alias column lists are not allowed.");
        }
        String name = SqlText.unquote(raw);
        if (name.isBlank() || name.length() > 64 || LABEL_UNSAFE.matcher(name).find() || !name.strip().equals(name)) {
            throw construct("An alias must be 1 to 64 printable characters without backticks or surrounding spaces.");
        }
        return name;
    }

    // ------------------------------------------------------------------ select list

    private Item selectItem(SelectItem<?> item, int ordinal) {
        Expression e = item.getExpression();
        if (e instanceof AllColumns) {
            throw new GuardException(ErrorCode.WILDCARD_NOT_ALLOWED);
        }
        int before = parameterIndices.size();
        Set<ColumnRef> lineage = new LinkedHashSet<>();
        String sql = expr(e, Clause.SELECT, lineage, 0);
        boolean hasParameter = parameterIndices.size() > before;
        selectItemParameters.addAll(parameterIndices.subList(before, parameterIndices.size()));
        parameterIndices.subList(before, parameterIndices.size()).clear();
        String label;
        if (item.getAlias() != null) {
            label = alias(item.getAlias().getName(), item.getAlias().getAliasColumns() != null);
        } else if (e instanceof Column c) {
            label = SqlText.unquote(c.getColumnName());
        } else {
            label = derivedLabel(e, ordinal);
        }
        Optional<ColumnRef> bare = e instanceof Column && lineage.size() == 1 ? Optional.of(lineage.iterator().next()) : Optional.empty();
        return new Item(label, sql, Set.copyOf(lineage), bare, hasParameter);
    }

    private static String derivedLabel(Expression e, int ordinal) {
        String text = LABEL_UNSAFE.matcher(e.toString()).replaceAll("").replaceAll("\\s+", " ").strip();
        if (text.length() > 64) {
            text = text.substring(0, 64).strip();
        }
        return text.isEmpty() ? "col_" + ordinal : text;
    }

    // ------------------------------------------------------------------ GROUP BY, ORDER BY, LIMIT

    private String groupBy(GroupByElement groupBy) {
        if ((groupBy.getGroupingSets() != null && !groupBy.getGroupingSets().isEmpty()) || groupBy.isMysqlWithRollup()) {
            throw construct("GROUPING SETS and WITH ROLLUP are not allowed.");
        }
        ExpressionList<Expression> list = groupBy.getGroupByExpressionList();
        if (list == null || list.isEmpty()) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "GROUP BY needs at least one expression.");
        }
        List<String> out = new ArrayList<>();
        for (Expression e : list) {
            out.add(wholeItem(e, Clause.GROUP_BY));
        }
        return String.join(", ", out);
    }

    private String orderBy(List<OrderByElement> elements) {
        List<String> out = new ArrayList<>();
        for (OrderByElement o : elements) {
            if (o.getNullOrdering() != null || o.getWithFill() != null || o.isMysqlWithRollup()) {
                throw construct("NULLS FIRST, NULLS LAST and WITH ROLLUP are not allowed in ORDER BY.");
            }
            out.add(wholeItem(o.getExpression(), Clause.ORDER_BY) + (o.isAscDescPresent() ? (o.isAsc() ? " ASC" : " DESC") : ""));
        }
        return String.join(", ", out);
    }

    /** A GROUP BY or ORDER BY item: a select-list alias becomes its position, anything else an expression. */
    private String wholeItem(Expression e, Clause clause) {
        if (e instanceof Column c && c.getTable() == null) {
            Optional<Integer> position = aliasPosition(SqlText.unquote(c.getColumnName()), clause);
            if (position.isPresent()) {
                checkNotSensitive(items.get(position.get() - 1), clause);
                return position.get().toString();
            }
        }
        Optional<LongValue> literal = integerLiteral(e);
        if (literal.isPresent()) {
            // the server reads a bare integer as a select-list position; fail closed for parenthesised ones too
            String text = number(literal.get());
            BigInteger position = new BigInteger(text);
            if (position.signum() > 0 && position.compareTo(BigInteger.valueOf(items.size())) <= 0) {
                checkNotSensitive(items.get(position.intValueExact() - 1), clause);
            }
            if (e instanceof LongValue) {
                return text;
            }
        }
        Set<ColumnRef> ignored = new LinkedHashSet<>();
        return expr(e, clause, ignored, 0);
    }

    /**
     * An integer literal, possibly wrapped in parentheses and signs. MariaDB 10.11 reads
     * {@code ORDER BY (1)}, {@code +1} and {@code (+(+1))} as positions (measured); the magnitude
     * of any such chain is treated as a position, failing closed.
     */
    private static Optional<LongValue> integerLiteral(Expression e) {
        Expression inner = e;
        for (int i = 0; i <= MAX_EXPRESSION_DEPTH; i++) {
            if (inner != null && inner.getClass() == LongValue.class) {
                return Optional.of((LongValue) inner);
            }
            if (inner != null && inner.getClass() == SignedExpression.class) {
                inner = ((SignedExpression) inner).getExpression();
            } else if (inner instanceof Parenthesis p) {
                inner = p.getExpression();
            } else if (inner != null && inner.getClass() == ParenthesedExpressionList.class && ((ParenthesedExpressionList<?>) inner).size() == 1) {
                inner = ((ParenthesedExpressionList<?>) inner).get(0);
            } else {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** The 1-based position of the select item labelled {@code name}, when the name means that item. */
    private Optional<Integer> aliasPosition(String name, Clause clause) {
        int match = -1;
        for (int i = 0; i < items.size(); i++) {
            if (Names.fold(items.get(i).label()).equals(Names.fold(name))) {
                if (match >= 0) {
                    throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, "More than one output column is named " + SafeText.identifier(name) + ".");
                }
                match = i;
            }
        }
        if (match < 0) {
            return Optional.empty();
        }
        Optional<ColumnRef> column = lookupColumn(name);
        if (column.isPresent()) {
            // the name is also a table column: fine only when the item is that very column
            if (items.get(match).bareColumn().equals(column)) {
                return Optional.empty();
            }
            throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, SafeText.identifier(name) + " names both an output column and a table column; rename the alias.");
        }
        return Optional.of(match + 1);
    }

    private String limit(PlainSelect ps) {
        long cap = (long) policy.limits().maxRows() + 1;
        long rows = cap;
        long offset = 0;
        Limit limit = ps.getLimit();
        if (limit != null) {
            if (limit.getByExpressions() != null && !limit.getByExpressions().isEmpty()) {
                throw construct("LIMIT BY is not allowed.");
            }
            if (limit.getRowCount() != null && !limit.isLimitAll() && !limit.isLimitNull()) {
                rows = Math.min(cap, limitNumber(limit.getRowCount()));
            }
            if (limit.getOffset() != null) {
                offset = limitNumber(limit.getOffset());
            }
        }
        Offset off = ps.getOffset();
        if (off != null) {
            if (off.getOffsetParam() != null || limit != null && limit.getOffset() != null) {
                throw construct("Write OFFSET once, as LIMIT n OFFSET m.");
            }
            offset = limitNumber(off.getOffset());
        }
        return " LIMIT " + rows + (offset > 0 ? " OFFSET " + offset : "");
    }

    private static long limitNumber(Expression e) {
        if (!(e instanceof LongValue v) || !DIGITS.matcher(v.getStringValue()).matches()) {
            throw construct("LIMIT and OFFSET take plain numbers, not parameters or expressions.");
        }
        BigInteger value = new BigInteger(v.getStringValue());
        return value.bitLength() > 62 ? Long.MAX_VALUE / 2 : value.longValue();
    }

    // ------------------------------------------------------------------ expressions

    private String expr(Expression e, Clause clause, Set<ColumnRef> lineage, int depth) {
        boolean operator = e != null && isOperator(e);
        if (operator) {
            operatorDepth++;
        }
        try {
            return node(e, clause, lineage, depth);
        } finally {
            if (operator) {
                operatorDepth--;
            }
        }
    }

    /**
     * Whether {@code e} computes a truth value or does arithmetic: a sensitive column under such a
     * node could steer an error or a row set even when its own value is redacted.
     */
    private static boolean isOperator(Expression e) {
        Class<?> c = e.getClass();
        return binaryOperator(e) != null || c == Between.class || c == InExpression.class || c == IsNullExpression.class
                || c == LikeExpression.class || c == CaseExpression.class || c == NotExpression.class || c == SignedExpression.class;
    }

    private String node(Expression e, Clause clause, Set<ColumnRef> lineage, int depth) {
        if (depth > MAX_EXPRESSION_DEPTH) {
            throw new GuardException(ErrorCode.QUERY_TOO_COMPLEX, "The query nests expressions too deeply.");
        }
        int d = depth + 1;
        if (e == null) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "An expression is missing.");
        }
        if (e instanceof SupportsOldOracleJoinSyntax o && (o.getOldOracleJoinSyntax() != 0 || o.getOraclePriorPosition() != 0)) {
            throw unsafe("Oracle join syntax");
        }
        if (e instanceof Column c) {
            return column(c, clause, lineage, d);
        }
        if (e instanceof Select) {
            throw construct("Subqueries are not allowed on this source.");
        }
        if (e instanceof ExistsExpression) {
            throw construct("EXISTS subqueries are not allowed on this source.");
        }
        if (e instanceof AllColumns) {
            throw new GuardException(ErrorCode.WILDCARD_NOT_ALLOWED);
        }
        if (e instanceof UserVariable || e instanceof VariableAssignment) {
            throw new GuardException(ErrorCode.VARIABLE_NOT_ALLOWED);
        }
        if (e instanceof JdbcNamedParameter || e instanceof NumericBind) {
            throw construct("Use ? for parameters.");
        }
        if (e instanceof NextValExpression) {
            throw new GuardException(ErrorCode.FUNCTION_NOT_ALLOWED, "Sequences are not allowed.");
        }
        if (e instanceof AnalyticExpression) {
            throw construct("Window functions (OVER) are not allowed on this source.");
        }
        if (e.getClass() == JdbcParameter.class) {
            JdbcParameter p = (JdbcParameter) e;
            if (p.isUseFixedIndex() || !"?".equals(p.getParameterCharacter()) || p.getIndex() == null) {
                throw construct("Use ? for parameters.");
            }
            parameterIndices.add(p.getIndex());
            return "?";
        }
        if (e.getClass() == LongValue.class) {
            return number((LongValue) e);
        }
        if (e.getClass() == DoubleValue.class) {
            String text = e.toString();
            if (!DECIMAL.matcher(text).matches() || text.chars().noneMatch(Character::isDigit)) {
                throw unsafe("number literal");
            }
            return text;
        }
        if (e.getClass() == StringValue.class) {
            StringValue s = (StringValue) e;
            if (s.getPrefix() != null || !"'".equals(s.getQuoteStr())) {
                throw unsafe("prefixed or double-quoted string literal");
            }
            return SqlText.string(s.getNotExcapedValue());
        }
        if (e.getClass() == NullValue.class) {
            return "NULL";
        }
        if (e.getClass() == BooleanValue.class) {
            return ((BooleanValue) e).getValue() ? "TRUE" : "FALSE";
        }
        if (e.getClass() == DateTimeLiteralExpression.class) {
            return dateTime((DateTimeLiteralExpression) e);
        }
        if (e.getClass() == ParenthesedExpressionList.class) {
            ParenthesedExpressionList<?> list = (ParenthesedExpressionList<?>) e;
            if (list.size() != 1) {
                throw unsafe("row constructor");
            }
            return "(" + expr(list.get(0), clause, lineage, d) + ")";
        }
        if (e.getClass() == Parenthesis.class) {
            return "(" + expr(((Parenthesis) e).getExpression(), clause, lineage, d) + ")";
        }
        if (e.getClass() == SignedExpression.class) {
            SignedExpression s = (SignedExpression) e;
            if (s.getSign() != '-' && s.getSign() != '+') {
                throw unsafe("bitwise operator");
            }
            return "(" + s.getSign() + expr(s.getExpression(), clause, lineage, d) + ")";
        }
        if (e.getClass() == NotExpression.class) {
            return "(NOT " + expr(((NotExpression) e).getExpression(), clause, lineage, d) + ")";
        }
        String binary = binaryOperator(e);
        if (binary != null) {
            BinaryExpression b = (BinaryExpression) e;
            return "(" + expr(b.getLeftExpression(), clause, lineage, d) + " " + binary + " "
                    + expr(b.getRightExpression(), clause, lineage, d) + ")";
        }
        if (e.getClass() == Between.class) {
            Between b = (Between) e;
            if (b.isUsingSymmetric() || b.isUsingAsymmetric()) {
                throw unsafe("BETWEEN SYMMETRIC");
            }
            return "(" + expr(b.getLeftExpression(), clause, lineage, d) + (b.isNot() ? " NOT BETWEEN " : " BETWEEN ")
                    + expr(b.getBetweenExpressionStart(), clause, lineage, d) + " AND "
                    + expr(b.getBetweenExpressionEnd(), clause, lineage, d) + ")";
        }
        if (e.getClass() == InExpression.class) {
            return in((InExpression) e, clause, lineage, d);
        }
        if (e.getClass() == IsNullExpression.class) {
            IsNullExpression n = (IsNullExpression) e;
            return "(" + expr(n.getLeftExpression(), clause, lineage, d) + (n.isNot() ? " IS NOT NULL)" : " IS NULL)");
        }
        if (e.getClass() == LikeExpression.class) {
            return like((LikeExpression) e, clause, lineage, d);
        }
        if (e.getClass() == CaseExpression.class) {
            return caseExpr((CaseExpression) e, clause, lineage, d);
        }
        if (e.getClass() == CastExpression.class) {
            CastExpression c = (CastExpression) e;
            if (!c.isUseCastKeyword() || c.getFormat() != null || (c.getColumnDefinitions() != null && !c.getColumnDefinitions().isEmpty())) {
                throw unsafe("cast form");
            }
            return "CAST(" + expr(c.getLeftExpression(), clause, lineage, d) + " AS " + castType(c.getColDataType()) + ")";
        }
        if (e.getClass() == Function.class) {
            return function((Function) e, clause, lineage, d);
        }
        if (e.getClass() == TimeKeyExpression.class) {
            return timeKey((TimeKeyExpression) e);
        }
        throw unsafe(e.getClass().getSimpleName());
    }

    private static String binaryOperator(Expression e) {
        Class<?> c = e.getClass();
        if (c == AndExpression.class) {
            return "AND";
        } else if (c == OrExpression.class) {
            return "OR";
        } else if (c == XorExpression.class) {
            return "XOR";
        } else if (c == EqualsTo.class) {
            return "=";
        } else if (c == NotEqualsTo.class) {
            return "<>";
        } else if (c == GreaterThan.class) {
            return ">";
        } else if (c == GreaterThanEquals.class) {
            return ">=";
        } else if (c == MinorThan.class) {
            return "<";
        } else if (c == MinorThanEquals.class) {
            return "<=";
        } else if (c == Addition.class) {
            return "+";
        } else if (c == Subtraction.class) {
            return "-";
        } else if (c == Multiplication.class) {
            return "*";
        } else if (c == Division.class) {
            return "/";
        } else if (c == Modulo.class) {
            return "%";
        }
        return null;
    }

    /** CURRENT_DATE, CURRENT_TIME, CURRENT_TIMESTAMP: allowed when the policy lists them as functions. */
    private String timeKey(TimeKeyExpression e) {
        String key = Names.fold(e.getStringValue().strip());
        if (key.endsWith("()")) {
            key = key.substring(0, key.length() - 2);
        }
        if (!Set.of("current_date", "current_time", "current_timestamp").contains(key)) {
            throw unsafe("time keyword");
        }
        if (!functionAllowlist.contains(key)) {
            throw new GuardException(ErrorCode.FUNCTION_NOT_ALLOWED, "The function " + SafeText.identifier(key) + " is not allowlisted.");
        }
        functions.add(key);
        return key.toUpperCase(Locale.ROOT);
    }

    private static String number(LongValue v) {
        String text = v.getStringValue();
        if (!DIGITS.matcher(text).matches()) {
            throw unsafe("number literal");
        }
        return text;
    }

    private static String dateTime(DateTimeLiteralExpression e) {
        String value = e.getValue();
        return switch (e.getType()) {
            case DATE -> checked("DATE ", value, DATE);
            case TIME -> checked("TIME ", value, TIME);
            case TIMESTAMP -> checked("TIMESTAMP ", value, TIMESTAMP);
            default -> throw unsafe("date or time literal");
        };
    }

    private static String checked(String keyword, String value, Pattern pattern) {
        if (value == null || !pattern.matcher(value).matches()) {
            throw unsafe("date or time literal");
        }
        return keyword + value;
    }

    private String in(InExpression in, Clause clause, Set<ColumnRef> lineage, int d) {
        if (in.isGlobal()) {
            throw unsafe("GLOBAL IN");
        }
        Expression right = in.getRightExpression();
        if (right instanceof Select) {
            throw construct("Subqueries are not allowed on this source.");
        }
        if (!(right instanceof ExpressionList<?> list) || list.isEmpty()) {
            throw unsafe("IN without a value list");
        }
        Expression left = in.getLeftExpression();
        if (left instanceof ExpressionList<?>) {
            throw unsafe("row constructor");
        }
        List<String> values = new ArrayList<>();
        String leftSql = expr(left, clause, lineage, d);
        for (Expression v : list) {
            values.add(expr(v, clause, lineage, d));
        }
        return "(" + leftSql + (in.isNot() ? " NOT IN (" : " IN (") + String.join(", ", values) + "))";
    }

    private String like(LikeExpression like, Clause clause, Set<ColumnRef> lineage, int d) {
        if (like.getLikeKeyWord() != LikeExpression.KeyWord.LIKE || like.isUseBinary() || like.isCaseInsensitive()) {
            throw construct("Only LIKE is allowed for pattern matching (no REGEXP, RLIKE, ILIKE or SIMILAR TO).");
        }
        String out = "(" + expr(like.getLeftExpression(), clause, lineage, d) + (like.isNot() ? " NOT LIKE " : " LIKE ")
                + expr(like.getRightExpression(), clause, lineage, d);
        if (like.getEscape() != null) {
            if (!(like.getEscape() instanceof StringValue s) || s.getNotExcapedValue().length() != 1) {
                throw unsafe("LIKE ESCAPE");
            }
            out += " ESCAPE " + expr(like.getEscape(), clause, lineage, d);
        }
        return out + ")";
    }

    private String caseExpr(CaseExpression c, Clause clause, Set<ColumnRef> lineage, int d) {
        if (c.getWhenClauses() == null || c.getWhenClauses().isEmpty()) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "CASE needs a WHEN.");
        }
        StringBuilder out = new StringBuilder("(CASE");
        if (c.getSwitchExpression() != null) {
            out.append(' ').append(expr(c.getSwitchExpression(), clause, lineage, d));
        }
        for (WhenClause w : c.getWhenClauses()) {
            out.append(" WHEN ").append(expr(w.getWhenExpression(), clause, lineage, d))
                    .append(" THEN ").append(expr(w.getThenExpression(), clause, lineage, d));
        }
        if (c.getElseExpression() != null) {
            out.append(" ELSE ").append(expr(c.getElseExpression(), clause, lineage, d));
        }
        return out.append(" END)").toString();
    }

    private static final Pattern CAST_TYPE = Pattern.compile(
            "(SIGNED|SIGNED INTEGER|UNSIGNED|UNSIGNED INTEGER|DATE|DOUBLE)"
            + "|(DATETIME|TIME)( \\(([0-6])\\))?"
            + "|(DECIMAL)( \\(([0-9]{1,2})(, ([0-9]{1,2}))?\\))?"
            + "|(CHAR)( \\(([0-9]{1,5})\\))?");

    private static String castType(ColDataType type) {
        if (type == null || type.getCharacterSet() != null || (type.getArrayData() != null && !type.getArrayData().isEmpty())
                || (type.getArgumentsStringList() != null && !type.getArgumentsStringList().isEmpty())) {
            throw unsafe("cast type");
        }
        String name = type.getDataType().toUpperCase(Locale.ROOT).strip().replaceAll("\\s+", " ");
        java.util.regex.Matcher m = CAST_TYPE.matcher(name);
        if (!m.matches()) {
            throw construct("CAST supports SIGNED, UNSIGNED, DECIMAL(p,s), CHAR(n), DATE, DATETIME, TIME and DOUBLE.");
        }
        if (m.group(1) != null) {
            return m.group(1);
        }
        if (m.group(2) != null) {
            return m.group(2) + (m.group(4) == null ? "" : "(" + m.group(4) + ")");
        }
        if (m.group(5) != null) {
            return "DECIMAL" + (m.group(7) == null ? "" : "(" + m.group(7) + (m.group(9) == null ? "" : ", " + m.group(9)) + ")");
        }
        return "CHAR" + (m.group(12) == null ? "" : "(" + m.group(12) + ")");
    }

    private String function(Function f, Clause clause, Set<ColumnRef> lineage, int d) {
        if (f.getMultipartName() == null || f.getMultipartName().size() != 1 || f.isEscaped()) {
            throw new GuardException(ErrorCode.FUNCTION_NOT_ALLOWED, "Qualified or escaped function names are not allowed.");
        }
        String name = Names.fold(f.getName());
        if (!FUNCTION_NAME.matcher(name).matches()) {
            throw new GuardException(ErrorCode.FUNCTION_NOT_ALLOWED, "Quoted function names are not allowed.");
        }
        if (NEVER_ALLOWED.contains(name)) {
            throw new GuardException(name.equals("load_file") ? ErrorCode.EXTERNAL_ACCESS_DENIED : ErrorCode.FUNCTION_NOT_ALLOWED,
                    "The function " + SafeText.identifier(name) + " is never allowed.");
        }
        if (!functionAllowlist.contains(name)) {
            throw new GuardException(ErrorCode.FUNCTION_NOT_ALLOWED, "The function " + SafeText.identifier(name)
                    + " is not allowlisted; allowed: " + String.join(", ", new java.util.TreeSet<>(functionAllowlist)) + ".");
        }
        if (f.getKeep() != null || (f.getOrderByElements() != null && !f.getOrderByElements().isEmpty())
                || f.getHavingClause() != null || f.getLimit() != null || f.getNullHandling() != null || f.isIgnoreNulls()
                || f.isIgnoreNullsOutside() || f.getNamedParameters() != null || f.getChainedParameters() != null
                || f.getAttribute() != null || f.getAttributeColumn() != null || f.getExtraKeyword() != null
                || (f.getKeywordArguments() != null && !f.getKeywordArguments().isEmpty()) || f.getOnOverflowTruncate() != null
                || f.isUnique()) {
            throw construct("The function call uses a clause that is not allowed.");
        }
        functions.add(name);
        ExpressionList<?> params = f.getParameters();
        boolean star = f.isAllColumns() || (params != null && params.size() == 1 && params.get(0) instanceof AllColumns a && isPlainStar(a));
        if (star) {
            if (!name.equals("count") || f.isDistinct()) {
                throw new GuardException(ErrorCode.WILDCARD_NOT_ALLOWED, "Only COUNT(*) may use *.");
            }
            return "count(*)";
        }
        List<String> args = new ArrayList<>();
        if (params != null) {
            for (Expression p : params) {
                args.add(expr(p, clause, lineage, d));
            }
        }
        if (f.isDistinct() && args.isEmpty()) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "DISTINCT needs an argument.");
        }
        return name + "(" + (f.isDistinct() ? "DISTINCT " : "") + String.join(", ", args) + ")";
    }

    private static boolean isPlainStar(AllColumns a) {
        return a.getClass() == AllColumns.class && "*".equals(a.toString().strip());
    }

    // ------------------------------------------------------------------ columns

    private String column(Column c, Clause clause, Set<ColumnRef> lineage, int depth) {
        if (c.getArrayConstructor() != null || c.getCommentText() != null) {
            throw unsafe("column form");
        }
        String name = SqlText.unquote(c.getColumnName());
        Table qualifier = c.getTable();
        boolean qualified = qualifier != null && qualifier.getName() != null;
        if (!qualified && (clause == Clause.HAVING || clause == Clause.ORDER_BY)) {
            Optional<Item> aliased = aliasItem(name);
            if (aliased.isPresent()) {
                Item item = aliased.get();
                if (item.hasParameter()) {
                    throw construct("An alias whose expression has a parameter cannot be reused here; repeat the expression.");
                }
                checkNotSensitive(item, clause);
                lineage.addAll(item.lineage());
                return "(" + item.sql() + ")";
            }
        }
        if (!qualified && clause == Clause.GROUP_BY && aliasItem(name).isPresent()) {
            throw construct("Use an output alias in GROUP BY only as a whole item.");
        }
        Source source;
        ColumnInfo info;
        if (qualified) {
            if (qualifier.getNameParts().size() > 2) {
                throw new GuardException(ErrorCode.UNKNOWN_COLUMN, "Qualify columns as table.column or alias.column.");
            }
            String tableName = SqlText.unquote(qualifier.getName());
            Optional<String> schemaName = qualifier.getSchemaName() == null ? Optional.empty() : Optional.of(SqlText.unquote(qualifier.getSchemaName()));
            source = sourceFor(schemaName, tableName);
            info = source.table().column(name).orElseThrow(() -> unknownColumn(name));
        } else {
            Source found = null;
            ColumnInfo foundInfo = null;
            for (int i = 0; i < visibleSources; i++) {
                Source s = sources.get(i);
                Optional<ColumnInfo> ci = s.table().column(name);
                if (ci.isPresent()) {
                    if (found != null) {
                        throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, "The column " + SafeText.identifier(name)
                                + " exists in more than one table; qualify it.");
                    }
                    found = s;
                    foundInfo = ci.get();
                }
            }
            if (found == null) {
                throw unknownColumn(name);
            }
            source = found;
            info = foundInfo;
        }
        TableInfo table = source.table();
        TableRef policyRef = Names.fold(table.schema()).equals(Names.fold(schema.defaultSchema()))
                ? TableRef.of(table.name()) : table.ref();
        if (!policy.tables().allowsColumn(policyRef, info.name()) && !policy.tables().allowsColumn(table.ref(), info.name())) {
            throw new GuardException(ErrorCode.COLUMN_NOT_ALLOWED, "The column " + SafeText.identifier(table.name() + "." + info.name()) + " is not allowlisted.");
        }
        if (policy.isSensitive(info.name())) {
            checkSensitiveUse(info.name(), clause);
        }
        ColumnRef ref = new ColumnRef(table.ref(), info.name());
        lineage.add(ref);
        columns.add(ref);
        return SqlText.identifier(source.renderedAlias()) + "." + SqlText.identifier(info.name());
    }

    private Source sourceFor(Optional<String> schemaName, String tableName) {
        Source match = null;
        for (int i = 0; i < visibleSources; i++) {
            Source s = sources.get(i);
            boolean hit;
            if (schemaName.isPresent()) {
                hit = s.tableName().isPresent() && Names.fold(s.table().schema()).equals(Names.fold(schemaName.get()))
                        && Names.fold(s.table().name()).equals(Names.fold(tableName));
            } else {
                hit = Names.fold(s.visibleName()).equals(Names.fold(tableName));
            }
            if (hit) {
                if (match != null) {
                    throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, "The table name " + SafeText.identifier(tableName) + " is ambiguous; use aliases.");
                }
                match = s;
            }
        }
        if (match == null) {
            throw new GuardException(ErrorCode.UNKNOWN_COLUMN, "The qualifier " + SafeText.identifier(tableName)
                    + " does not name a table of this query (use the alias when a table has one).");
        }
        return match;
    }

    private Optional<Item> aliasItem(String name) {
        Item match = null;
        for (Item item : items) {
            if (Names.fold(item.label()).equals(Names.fold(name))) {
                if (match != null) {
                    throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, "More than one output column is named " + SafeText.identifier(name) + ".");
                }
                match = item;
            }
        }
        if (match == null) {
            return Optional.empty();
        }
        Optional<ColumnRef> column = lookupColumn(name);
        if (column.isPresent()) {
            if (match.bareColumn().equals(column)) {
                return Optional.empty(); // the alias is that very column: resolve it as a column
            }
            throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, SafeText.identifier(name) + " names both an output column and a table column; rename the alias.");
        }
        return Optional.of(match);
    }

    /** The table column an unqualified name would resolve to (allowlisted or not), if exactly one. */
    private Optional<ColumnRef> lookupColumn(String name) {
        ColumnRef found = null;
        for (int i = 0; i < visibleSources; i++) {
            Optional<ColumnInfo> ci = sources.get(i).table().column(name);
            if (ci.isPresent()) {
                if (found != null) {
                    throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, "The column " + SafeText.identifier(name) + " exists in more than one table; qualify it.");
                }
                found = new ColumnRef(sources.get(i).table().ref(), ci.get().name());
            }
        }
        return Optional.ofNullable(found);
    }

    private void checkParameterOrder() {
        for (int i = 0; i < parameterIndices.size(); i++) {
            if (parameterIndices.get(i) != i + 1) {
                throw construct("Parameters could not be matched to their positions; use plain ? placeholders.");
            }
        }
    }

    // ------------------------------------------------------------------ sensitive columns

    /**
     * A sensitive column may only be returned: as a select item, through functions and aggregates,
     * its value redacted by the projector. Anywhere else it is an oracle: a filter, join, group or
     * order reveals its value through which rows come back and in what order, and an operator in
     * the select list through a value-dependent error (a CASE branch or an out-of-range subtraction).
     */
    private void checkSensitiveUse(String column, Clause clause) {
        if (clause != Clause.SELECT) {
            throw sensitive(column);
        }
        if (operatorDepth > 0) {
            throw new GuardException(ErrorCode.COLUMN_NOT_ALLOWED, "Column " + SafeText.identifier(column)
                    + " is sensitive: it may be selected, passed to functions or aggregated (values come back redacted),"
                    + " but not compared, tested, put in CASE or used in arithmetic.");
        }
    }

    /** Refuses reusing a select item (alias or position) outside the select list when it reads a sensitive column. */
    private void checkNotSensitive(Item item, Clause clause) {
        Optional<String> column = sensitiveSource(item);
        if (column.isPresent() && clause != Clause.SELECT) {
            throw sensitive(column.get());
        }
    }

    private Optional<String> sensitiveSource(Item item) {
        for (ColumnRef ref : item.lineage()) {
            if (policy.isSensitive(ref.column())) {
                return Optional.of(ref.column());
            }
        }
        return Optional.empty();
    }

    private static GuardException sensitive(String column) {
        return new GuardException(ErrorCode.COLUMN_NOT_ALLOWED, "Column " + SafeText.identifier(column)
                + " is sensitive: it may be selected (values come back redacted) but not used to filter, join, group or order.");
    }

    // ------------------------------------------------------------------ errors

    private static GuardException construct(String message) {
        return new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, message);
    }

    private static GuardException unsafe(String what) {
        String shown = what.length() <= 40 && what.chars().allMatch(ch -> Character.isLetterOrDigit(ch) || ch == ' ')
                ? what : "this construct";
        return new GuardException(ErrorCode.UNSAFE_SYNTAX, "The query uses syntax this source cannot check and render safely (" + shown + ").");
    }

    private static GuardException unknownColumn(String name) {
        return new GuardException(ErrorCode.UNKNOWN_COLUMN, "The column " + SafeText.identifier(name) + " does not exist in the tables of this query.");
    }

    private static GuardException tableNotAllowed(String name) {
        return new GuardException(ErrorCode.TABLE_NOT_ALLOWED, "The table " + SafeText.identifier(name) + " is not allowlisted on this source.");
    }
}
