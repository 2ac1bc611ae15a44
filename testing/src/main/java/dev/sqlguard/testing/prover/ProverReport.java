package dev.sqlguard.testing.prover;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one run of the {@link CatalogProver} found.
 *
 * @param findings every argument the catalog classifies wrongly, with the value that proved it
 * @param proven the functions of which at least one signature was evaluated
 * @param unproven the catalog's functions of which no signature could be evaluated
 * @param skipped signatures left out, with why (a type the dialect cannot write, no succeeding call)
 * @param calls how many calls the engine evaluated
 */
public record ProverReport(List<Finding> findings, Set<String> proven, Set<String> unproven, List<String> skipped, int calls) {
    public ProverReport {
        findings = List.copyOf(findings);
        proven = Set.copyOf(new TreeSet<>(proven));
        unproven = Set.copyOf(new TreeSet<>(unproven));
        skipped = List.copyOf(skipped);
    }

    /** The report as lines a test failure can show. */
    public String describe() {
        StringBuilder out = new StringBuilder();
        out.append(calls).append(" calls, ").append(proven.size()).append(" functions proven, ")
                .append(findings.size()).append(" findings\n");
        Map<String, List<Finding>> grouped = new LinkedHashMap<>();
        findings.forEach(f -> grouped.computeIfAbsent(f.signature() + " argument " + f.position() + ": " + f.kind(),
                k -> new ArrayList<>()).add(f));
        grouped.forEach((where, list) -> out.append("  finding: ").append(where).append(", ").append(list.size())
                .append(list.size() == 1 ? " value, " : " values, first ").append(list.get(0).value()).append(" (")
                .append(list.get(0).evidence()).append(")\n"));
        if (!unproven.isEmpty()) {
            out.append("  unproven: ").append(new TreeSet<>(unproven)).append('\n');
        }
        return out.toString();
    }
}
