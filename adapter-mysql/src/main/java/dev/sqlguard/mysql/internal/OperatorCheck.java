package dev.sqlguard.mysql.internal;

import java.util.Map;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.CollateExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.NotExpression;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.operators.arithmetic.Addition;
import net.sf.jsqlparser.expression.operators.arithmetic.BitwiseAnd;
import net.sf.jsqlparser.expression.operators.arithmetic.BitwiseLeftShift;
import net.sf.jsqlparser.expression.operators.arithmetic.BitwiseOr;
import net.sf.jsqlparser.expression.operators.arithmetic.BitwiseRightShift;
import net.sf.jsqlparser.expression.operators.arithmetic.BitwiseXor;
import net.sf.jsqlparser.expression.operators.arithmetic.Division;
import net.sf.jsqlparser.expression.operators.arithmetic.IntegerDivision;
import net.sf.jsqlparser.expression.operators.arithmetic.Modulo;
import net.sf.jsqlparser.expression.operators.arithmetic.Multiplication;
import net.sf.jsqlparser.expression.operators.arithmetic.Subtraction;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.conditional.OrExpression;
import net.sf.jsqlparser.expression.operators.conditional.XorExpression;
import net.sf.jsqlparser.expression.operators.relational.Between;
import net.sf.jsqlparser.expression.operators.relational.CosineSimilarity;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.GreaterThan;
import net.sf.jsqlparser.expression.operators.relational.GreaterThanEquals;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.IsBooleanExpression;
import net.sf.jsqlparser.expression.operators.relational.IsNullExpression;
import net.sf.jsqlparser.expression.operators.relational.LikeExpression;
import net.sf.jsqlparser.expression.operators.relational.MinorThan;
import net.sf.jsqlparser.expression.operators.relational.MinorThanEquals;
import net.sf.jsqlparser.expression.operators.relational.NotEqualsTo;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.util.TablesNamesFinder;

/**
 * Refuses every operator nesting that JSqlParser and MariaDB/MySQL may group differently. The
 * renderer writes each operator node in parentheses, so what runs is exactly JSqlParser's grouping;
 * this check makes sure that grouping is also the one the server's grammar gives the model's text.
 *
 * <p>For every operator node, each operand that is itself an operator the model did not put in
 * parentheses must bind at least as tightly as the server's grammar demands for that operand
 * position (MariaDB's {@code sql_yacc.yy}: {@code expr}, {@code predicate}, {@code bit_expr}), with
 * left associativity. Where they agree the tree is the server's own; where JSqlParser grouped
 * otherwise (it binds {@code XOR} looser than {@code OR}, accepts {@code 0 = NOT 0}, ...) the query
 * is refused with advice to add parentheses. Operators this class does not know are accepted only
 * between atoms. {@code !}, {@code &&} and {@code ||} never get here: {@link SqlPrecheck} refuses
 * them as tokens.
 */
public final class OperatorCheck {
    // Server binding strength, loosest first (MariaDB and MySQL 8 agree on this order).
    private static final int OR = 1;
    private static final int XOR = 2;
    private static final int AND = 3;
    private static final int NOT = 4;
    private static final int BETWEEN = 5;
    private static final int COMPARISON = 6; // = <> < <= > >= IS LIKE IN
    private static final int BIT_OR = 7;
    private static final int BIT_AND = 8;
    private static final int SHIFT = 9;
    private static final int ADD = 10;
    private static final int MULTIPLY = 11;
    private static final int BIT_XOR = 12;
    private static final int UNARY = 13;
    /** Not an operator: a column, literal, call, CASE, CAST or anything in parentheses. */
    private static final int ATOM = Integer.MAX_VALUE;
    /** An operator this check does not know: allowed only with atoms around it. */
    private static final int UNKNOWN = -1;

    private static final Map<Class<?>, Integer> BINARY = Map.ofEntries(
            Map.entry(OrExpression.class, OR), Map.entry(XorExpression.class, XOR), Map.entry(AndExpression.class, AND),
            Map.entry(EqualsTo.class, COMPARISON), Map.entry(NotEqualsTo.class, COMPARISON),
            Map.entry(CosineSimilarity.class, COMPARISON), // MySQL's <=>, as JSqlParser 5.4 names it
            Map.entry(GreaterThan.class, COMPARISON), Map.entry(GreaterThanEquals.class, COMPARISON),
            Map.entry(MinorThan.class, COMPARISON), Map.entry(MinorThanEquals.class, COMPARISON),
            Map.entry(LikeExpression.class, COMPARISON),
            Map.entry(BitwiseOr.class, BIT_OR), Map.entry(BitwiseAnd.class, BIT_AND),
            Map.entry(BitwiseLeftShift.class, SHIFT), Map.entry(BitwiseRightShift.class, SHIFT),
            Map.entry(Addition.class, ADD), Map.entry(Subtraction.class, ADD),
            Map.entry(Multiplication.class, MULTIPLY), Map.entry(Division.class, MULTIPLY),
            Map.entry(IntegerDivision.class, MULTIPLY), Map.entry(Modulo.class, MULTIPLY),
            Map.entry(BitwiseXor.class, BIT_XOR));

    private OperatorCheck() {
    }

    /**
     * @throws GuardException UNSAFE_SYNTAX naming the operator when the parser's grouping may not be the server's
     */
    public static void check(Statement statement) {
        new Walker().getTables(statement);
    }

    /** The binding strength of a node as an operand, or {@link #ATOM}. */
    static int level(Expression e) {
        if (e instanceof NotExpression) {
            return NOT;
        }
        if (e instanceof SignedExpression) {
            return UNARY;
        }
        if (e instanceof Between) {
            return BETWEEN;
        }
        if (e instanceof InExpression || e instanceof IsNullExpression || e instanceof IsBooleanExpression) {
            return COMPARISON;
        }
        if (e instanceof BinaryExpression) {
            Integer level = BINARY.get(e.getClass());
            return level == null ? UNKNOWN : level;
        }
        return ATOM;
    }

    private static void require(Expression operand, int atLeast, String operator) {
        if (operand != null && level(operand) < atLeast) {
            throw new GuardException(ErrorCode.UNSAFE_SYNTAX, "The server may group the operands of " + operator
                    + " differently from the checker; add parentheses to say which grouping you mean.");
        }
    }

    private static String name(Expression e) {
        if (e instanceof BinaryExpression b) {
            String op = b.getStringExpression();
            return op == null || op.isBlank() || op.length() > 12 ? "an operator" : "'" + op.strip().toUpperCase(java.util.Locale.ROOT) + "'";
        }
        return "an operator";
    }

    /** Visits every expression of the statement, subqueries included, checking each operator node. */
    private static final class Walker extends TablesNamesFinder<Void> {
        @Override
        public void visitBinaryExpression(BinaryExpression b) {
            int level = level(b);
            String name = name(b);
            if (b instanceof LikeExpression) {
                // bit_expr LIKE bit_expr
                require(b.getLeftExpression(), BIT_OR, name);
                require(b.getRightExpression(), BIT_OR, name);
            } else if (level == COMPARISON) {
                // expr comp_op predicate: left-associative; a bare predicate (LIKE, IN, BETWEEN) on the right is refused too
                require(b.getLeftExpression(), COMPARISON, name);
                require(b.getRightExpression(), BIT_OR, name);
            } else if (level == UNKNOWN) {
                require(b.getLeftExpression(), ATOM, name);
                require(b.getRightExpression(), ATOM, name);
            } else {
                require(b.getLeftExpression(), level, name);
                require(b.getRightExpression(), level + 1, name);
            }
            super.visitBinaryExpression(b);
        }

        @Override
        public <S> Void visit(CosineSimilarity nullSafeEquals, S context) {
            // the finder's own visit of this node does not pass it to visitBinaryExpression
            visitBinaryExpression(nullSafeEquals);
            return null;
        }

        @Override
        public <S> Void visit(LikeExpression like, S context) {
            visitBinaryExpression(like);
            if (like.getEscape() != null) {
                like.getEscape().accept(this, context);
            }
            return null;
        }

        @Override
        public <S> Void visit(NotExpression not, S context) {
            if (not.isExclamationMark()) {
                throw new GuardException(ErrorCode.UNSAFE_SYNTAX, "'!' binds differently on the server; write NOT (...).");
            }
            require(not.getExpression(), NOT, "NOT");
            return super.visit(not, context);
        }

        @Override
        public <S> Void visit(CollateExpression collate, S context) {
            // simple_expr COLLATE ident: COLLATE binds tighter than every operator, a sign included
            require(collate.getLeftExpression(), ATOM, "COLLATE");
            return super.visit(collate, context);
        }

        @Override
        public <S> Void visit(SignedExpression signed, S context) {
            require(signed.getExpression(), UNARY, "a sign");
            return super.visit(signed, context);
        }

        @Override
        public <S> Void visit(Between between, S context) {
            // bit_expr [NOT] BETWEEN bit_expr AND predicate
            require(between.getLeftExpression(), BIT_OR, "BETWEEN");
            require(between.getBetweenExpressionStart(), BIT_OR, "BETWEEN");
            require(between.getBetweenExpressionEnd(), BIT_OR, "BETWEEN");
            return super.visit(between, context);
        }

        @Override
        public <S> Void visit(InExpression in, S context) {
            // bit_expr [NOT] IN (...)
            require(in.getLeftExpression(), BIT_OR, "IN");
            return super.visit(in, context);
        }

        @Override
        public <S> Void visit(IsNullExpression isNull, S context) {
            // expr IS [NOT] NULL
            require(isNull.getLeftExpression(), COMPARISON, "IS");
            return super.visit(isNull, context);
        }

        @Override
        public <S> Void visit(IsBooleanExpression isBoolean, S context) {
            require(isBoolean.getLeftExpression(), COMPARISON, "IS");
            return super.visit(isBoolean, context);
        }
    }
}
