package dev.sqlguard.jdbc.ansi;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.ColumnInfo;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.TableInfo;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.parser.Node;
import net.sf.jsqlparser.parser.Token;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedFromItem;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.Values;
import net.sf.jsqlparser.statement.select.WithItem;

/**
 * A text as written in which every reference to a catalog table that hides a column is the derived table of
 * its visible columns: {@code FROM claims c} becomes {@code FROM (SELECT "id", "amount" FROM claims) c}, and
 * {@code FROM public.claims} becomes {@code FROM (SELECT ... FROM public.claims) claims} (the table's own last
 * name as written). An engine that reads this text ({@code EXPLAIN}) reads it over a schema without the hidden
 * columns, for every clause and every way of naming a column (bare, qualified, {@code NATURAL}, {@code USING},
 * stars, subqueries, CTE bodies), as the check does, for which hidden columns do not exist.
 *
 * <p>The references are found the way the kit reads the text ({@link AnsiRenderer#parseOne} of the text with
 * keyword-named columns quoted, {@link KeywordNames}) and resolved as the renderer resolves them: a FROM item
 * (of a query, a join, a subquery, a CTE body, a set operation's branch) that is a table, not a common table
 * expression in scope, of the snapshot and allowlisted. Each is replaced at its position in the text; its text
 * there must start with the table's name as written, followed by nothing but its alias. Where anything does
 * not line up (a parse failure, a position off, a column qualified by its schema, which a derived table cannot
 * be), the text is returned as written: the engine then reads the hidden columns, and the comparison that
 * asks it refuses where its reading differs, as without this class. Immutable and thread-safe.
 */
@SuppressWarnings({"deprecation", "removal"})
public final class VisibleTables {
    /** What may follow a FROM item's name in its span: nothing, or its alias with or without AS. */
    private static final Pattern ALIAS = Pattern.compile("(?:\\s+(?:[Aa][Ss]\\s+)?(?:\"(?:[^\"]|\"\")+\"|[A-Za-z_][A-Za-z0-9_$]*))?");

    private final AnsiDialect dialect;
    private final AnsiNames naming;
    private final SchemaSnapshot schema;
    private final GuardrailPolicy policy;
    /** What the kit's parse quotes ({@link KeywordNames.Words}). */
    private final KeywordNames.Words words;
    /** Whether any allowlisted table hides a column: otherwise {@link #splice} has nothing to replace. */
    private final boolean hidesAny;

    public VisibleTables(AnsiDialect dialect, SchemaSnapshot schema, GuardrailPolicy policy) {
        this.dialect = requireNonNull(dialect, "dialect is null");
        this.naming = dialect.lexicon().names();
        this.schema = requireNonNull(schema, "schema is null");
        this.policy = requireNonNull(policy, "policy is null");
        this.words = KeywordNames.Words.of(dialect, schema, policy);
        this.hidesAny = schema.tables().values().stream().anyMatch(t -> policy.tables().allowsTable(t.ref()) && !hidden(t).isEmpty());
    }

    /** Whether any table of the snapshot that the allowlist admits hides a column: otherwise {@link #splice} changes nothing. */
    public boolean hidesAny() {
        return hidesAny;
    }

    /**
     * {@code sql} with each reference to an allowlisted table that hides a column replaced by the derived
     * table of its visible columns, or {@code sql} itself where nothing is replaced or anything does not line up.
     */
    public String splice(String sql) {
        if (!hidesAny) {
            return sql; // no second parse of a text on a source that hides nothing
        }
        try {
            return spliced(sql);
        } catch (RuntimeException | StackOverflowError e) {
            return sql;
        }
    }

    private String spliced(String sql) {
        String parsed = words.quote(sql);
        Statement statement = AnsiRenderer.parseOne(parsed, dialect);
        if (!(statement instanceof Select select)) {
            return sql;
        }
        Walk walk = new Walk();
        walk.select(select, Set.of());
        if (walk.schemaQualified || walk.found.isEmpty()) {
            return sql;
        }
        int[] toOriginal = parsed.equals(sql) ? null : alignment(sql, parsed);
        int[] lineStarts = lineStarts(parsed);
        List<Replacement> replacements = new ArrayList<>();
        for (Found f : walk.found) {
            Node node = f.table().getASTNode();
            if (node == null || node.jjtGetFirstToken() == null || node.jjtGetLastToken() == null) {
                return sql;
            }
            Token first = node.jjtGetFirstToken();
            Token last = node.jjtGetLastToken();
            int start = offset(lineStarts, parsed, first.beginLine, first.beginColumn);
            int end = offset(lineStarts, parsed, last.endLine, last.endColumn) + 1;
            if (start < 0 || end <= start || end > parsed.length()) {
                return sql;
            }
            if (toOriginal != null) {
                start = toOriginal[start];
                end = toOriginal[end - 1] + 1;
                if (start < 0 || end <= start) {
                    return sql;
                }
            }
            String written = f.table().getFullyQualifiedName();
            String span = sql.substring(start, end);
            if (written == null || written.isEmpty() || !span.startsWith(written)
                    || !ALIAS.matcher(span.substring(written.length())).matches()) {
                return sql;
            }
            String rest = span.substring(written.length());
            if (f.table().getAlias() == null ? !rest.isEmpty()
                    : rest.isEmpty() || !rest.endsWith(f.table().getAlias().getName())) {
                return sql; // the span is not the name and its alias
            }
            String alias = rest.isEmpty() ? " " + f.table().getName() : rest;
            String columns = String.join(", ", f.visible().stream().map(naming::identifier).toList());
            replacements.add(new Replacement(start, end, "(SELECT " + columns + " FROM " + written + ")" + alias));
        }
        replacements.sort(Comparator.comparingInt(Replacement::start));
        StringBuilder out = new StringBuilder(sql.length() + 64 * replacements.size());
        int copied = 0;
        for (Replacement r : replacements) {
            if (r.start() < copied) {
                return sql; // overlapping spans: nothing lines up
            }
            out.append(sql, copied, r.start()).append(r.text());
            copied = r.end();
        }
        return out.append(sql, copied, sql.length()).toString();
    }

    private record Replacement(int start, int end, String text) {
    }

    private record Found(Table table, List<String> visible) {
    }

    /** The columns of {@code t} the allowlist hides. */
    private List<String> hidden(TableInfo t) {
        return t.columns().stream().map(ColumnInfo::name).filter(c -> !policy.tables().allowsColumn(t.ref(), c)).toList();
    }

    /**
     * The offset of each line's start, lines broken as JavaCC counts them: {@code \n}, {@code \r\n} (one break) and a
     * lone {@code \r}; a tab is one column.
     */
    static int[] lineStarts(String text) {
        List<Integer> starts = new ArrayList<>();
        starts.add(0);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
                continue;
            }
            if (c == '\n' || c == '\r') {
                starts.add(i + 1);
            }
        }
        return starts.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The offset of the 1-based line and column, or -1 when there is none. */
    private static int offset(int[] lineStarts, String text, int line, int column) {
        if (line < 1 || line > lineStarts.length || column < 1) {
            return -1;
        }
        int offset = lineStarts[line - 1] + column - 1;
        int lineEnd = line < lineStarts.length ? lineStarts[line] : text.length();
        return offset < lineEnd ? offset : -1;
    }

    /**
     * For each offset of {@code parsed} (the text with keyword-named columns quoted), the offset of the same character
     * in {@code sql}, or -1 for a quote {@link KeywordNames} added; null when the two texts do not line up that way.
     */
    private static int[] alignment(String sql, String parsed) {
        int[] map = new int[parsed.length()];
        int i = 0;
        for (int j = 0; j < parsed.length(); j++) {
            char p = parsed.charAt(j);
            if (i < sql.length() && Character.toLowerCase(sql.charAt(i)) == Character.toLowerCase(p)) {
                map[j] = i++;
            } else if (p == '"') {
                map[j] = -1;
            } else {
                throw new IllegalStateException("the quoted text does not line up");
            }
        }
        if (i != sql.length()) {
            throw new IllegalStateException("the quoted text does not line up");
        }
        return map;
    }

    /** The FROM items of a statement that are catalog tables hiding a column, with the common table expressions in scope. */
    private final class Walk {
        final List<Found> found = new ArrayList<>();
        boolean schemaQualified;

        void select(Select s, Set<String> outer) {
            Set<String> scope = new HashSet<>(outer);
            List<WithItem<?>> items = s.getWithItemsList();
            if (items != null && !items.isEmpty()) {
                boolean recursive = items.stream().anyMatch(WithItem::isRecursive);
                Set<String> names = new HashSet<>();
                for (WithItem<?> item : items) {
                    names.add(naming.name(item.getAlias().getName()));
                }
                for (WithItem<?> item : items) {
                    String name = naming.name(item.getAlias().getName());
                    Set<String> body = new HashSet<>(scope);
                    if (recursive) {
                        // in WITH RECURSIVE the names of the list are in scope in every body (the kit refuses a forward one)
                        body.addAll(names);
                    }
                    if (item.getParenthesedStatement() instanceof ParenthesedSelect ps) {
                        select(ps, body);
                    }
                    scope.add(name);
                }
            }
            if (s instanceof PlainSelect ps) {
                plain(ps, scope);
            } else if (s instanceof SetOperationList list) {
                for (Select branch : list.getSelects()) {
                    select(branch, scope);
                }
                orderBy(list.getOrderByElements(), scope);
            } else if (s instanceof ParenthesedSelect p) {
                select(p.getSelect(), scope);
                orderBy(p.getOrderByElements(), scope);
            } else if (s instanceof Values v) {
                expression(v.getExpressions(), scope);
            }
        }

        private void plain(PlainSelect ps, Set<String> scope) {
            fromItem(ps.getFromItem(), scope);
            if (ps.getJoins() != null) {
                for (Join join : ps.getJoins()) {
                    fromItem(join.getRightItem(), scope);
                    if (join.getOnExpressions() != null) {
                        join.getOnExpressions().forEach(e -> expression(e, scope));
                    }
                }
            }
            if (ps.getSelectItems() != null) {
                for (SelectItem<?> item : ps.getSelectItems()) {
                    expression(item.getExpression(), scope);
                }
            }
            if (ps.getDistinct() != null && ps.getDistinct().getOnSelectItems() != null) {
                ps.getDistinct().getOnSelectItems().forEach(item -> expression(item.getExpression(), scope));
            }
            expression(ps.getWhere(), scope);
            if (ps.getGroupBy() != null && ps.getGroupBy().getGroupByExpressionList() != null) {
                for (Object e : ps.getGroupBy().getGroupByExpressionList()) {
                    if (e instanceof Expression expression) {
                        expression(expression, scope);
                    }
                }
            }
            expression(ps.getHaving(), scope);
            expression(ps.getQualify(), scope);
            orderBy(ps.getOrderByElements(), scope);
        }

        private void orderBy(List<OrderByElement> elements, Set<String> scope) {
            if (elements != null) {
                elements.forEach(e -> expression(e.getExpression(), scope));
            }
        }

        private void fromItem(FromItem item, Set<String> scope) {
            if (item instanceof Table t) {
                table(t, scope);
            } else if (item instanceof ParenthesedSelect p) {
                select(p, scope);
            } else if (item instanceof Values v) {
                expression(v.getExpressions(), scope);
            } else if (item instanceof ParenthesedFromItem p) {
                fromItem(p.getFromItem(), scope);
                if (p.getJoins() != null) {
                    for (Join join : p.getJoins()) {
                        fromItem(join.getRightItem(), scope);
                        if (join.getOnExpressions() != null) {
                            join.getOnExpressions().forEach(e -> expression(e, scope));
                        }
                    }
                }
            }
        }

        private void table(Table t, Set<String> scope) {
            if (t.getNameParts().size() > 2 || t.getName() == null) {
                return; // the kit refuses it
            }
            String name = naming.name(t.getName());
            Optional<String> schemaName = t.getSchemaName() == null ? Optional.empty() : Optional.of(naming.name(t.getSchemaName()));
            if (schemaName.isEmpty() && scope.contains(name)) {
                return; // a common table expression
            }
            if (schemaName.isPresent() && dialect.lexicon().hiddenSchemas().contains(schemaName.get())) {
                return;
            }
            Optional<TableInfo> info = schema.find(schemaName, name);
            if (info.isEmpty() || !policy.tables().allowsTable(info.get().ref()) || hidden(info.get()).isEmpty()) {
                return;
            }
            List<String> visible = info.get().columns().stream().map(ColumnInfo::name)
                    .filter(c -> policy.tables().allowsColumn(info.get().ref(), c)).toList();
            if (visible.isEmpty()) {
                return; // no derived table of no column on every engine: read as written
            }
            found.add(new Found(t, visible));
        }

        private void expression(Expression e, Set<String> scope) {
            if (e == null) {
                return;
            }
            e.accept(new ExpressionVisitorAdapter<Void>() {
                @Override
                public <S> Void visit(ParenthesedSelect select, S context) {
                    Walk.this.select(select, scope);
                    return null;
                }

                @Override
                public <S> Void visit(Select select, S context) {
                    Walk.this.select(select, scope);
                    return null;
                }

                @Override
                public <S> Void visit(Column column, S context) {
                    if (column.getTable() != null && column.getTable().getNameParts().size() > 1) {
                        schemaQualified = true;
                    }
                    return super.visit(column, context);
                }

                @Override
                public <S> Void visit(AllTableColumns columns, S context) {
                    if (columns.getTable() != null && columns.getTable().getNameParts().size() > 1) {
                        schemaQualified = true;
                    }
                    return super.visit(columns, context);
                }
            }, null);
        }
    }
}
