package dev.sqlguard.mysql.internal;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import dev.sqlguard.domain.CostClass;
import dev.sqlguard.testing.prover.CatalogClasses;

/**
 * The catalog prover's view of {@link MySqlFunctions} (every catalogued function the prover can write
 * as a call) and of the casts to text ({@code cast:CHAR}, total where {@link Literals#textCast} says so),
 * with entries a test may flip.
 *
 * @param flippedFunctions functions whose class a test replaces
 * @param parameterArguments the per-argument partial positions (normally {@link MySqlFunctions#PARAMETER_ARGUMENTS})
 * @param names the functions to prove
 */
record MySqlClasses(Map<String, CostClass> flippedFunctions, Map<String, Set<Integer>> parameterArguments, Set<String> names)
        implements CatalogClasses {
    /**
     * Catalogued names the prover cannot write as {@code f(a, b)}, each with why: the server's grammar
     * gives them keywords inside the parentheses.
     */
    static final Map<String, String> SYNTAX_FORMS = Map.of(
            "extract", "EXTRACT(unit FROM x): the unit is a keyword, never a value",
            "position", "POSITION(a IN b), the parser's form of locate, which is proven",
            "date_add", "DATE_ADD(x, INTERVAL n unit): the unit is a keyword",
            "date_sub", "DATE_SUB(x, INTERVAL n unit): the unit is a keyword",
            "timestampdiff", "TIMESTAMPDIFF(unit, a, b): the renderer writes the unit as a keyword",
            "timestampadd", "TIMESTAMPADD(unit, n, x): the renderer writes the unit as a keyword");

    static MySqlClasses catalog() {
        Set<String> names = new TreeSet<>(MySqlFunctions.defaults());
        names.removeAll(SYNTAX_FORMS.keySet());
        names.add("cast:CHAR");
        names.add("cast:CHAR(3)");
        return new MySqlClasses(Map.of(), MySqlFunctions.PARAMETER_ARGUMENTS, names);
    }

    @Override
    public Set<String> functions() {
        return names;
    }

    @Override
    public CostClass argument(String function, int position) {
        if (function.startsWith("cast:")) {
            return Literals.textCast(function.substring("cast:".length())) ? CostClass.TOTAL : CostClass.PARTIAL;
        }
        CostClass c = flippedFunctions.getOrDefault(function, MySqlFunctions.of(function).orElseThrow().costClass());
        return c == CostClass.TOTAL && parameterArguments.getOrDefault(function, Set.of()).contains(position) ? CostClass.PARTIAL : c;
    }
}
