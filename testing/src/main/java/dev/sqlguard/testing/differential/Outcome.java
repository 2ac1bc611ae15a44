package dev.sqlguard.testing.differential;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** What running one statement gave: rows (each cell written down by the engine's test), or a failure. */
public sealed interface Outcome {
    /** Rows, each cell as text. */
    record Rows(List<List<String>> rows) implements Outcome {
        public Rows {
            rows = List.copyOf(rows.stream().map(List::copyOf).toList());
        }

        /** The rows in a fixed order, for a statement that does not order them. */
        List<List<String>> sorted() {
            List<List<String>> out = new ArrayList<>(rows);
            out.sort(Comparator.comparing(Object::toString));
            return out;
        }
    }

    /**
     * A refusal or an error.
     *
     * @param code the guard's error code, or {@code RAW} for the engine's own failure
     * @param message the message as shown to the caller
     */
    record Failed(String code, String message) implements Outcome {
        public Failed {
            requireNonNull(code, "code is null");
            requireNonNull(message, "message is null");
        }
    }
}
