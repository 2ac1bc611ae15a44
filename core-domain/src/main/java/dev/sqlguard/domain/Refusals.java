package dev.sqlguard.domain;

/**
 * The refusals every engine words the same way, so that a name an agent may not see is
 * indistinguishable from a name that does not exist: the same code, the same message.
 */
public final class Refusals {
    private Refusals() {
    }

    /** A table the query names that does not exist or is not allowlisted. */
    public static GuardException unknownTable(String name) {
        return new GuardException(ErrorCode.TABLE_NOT_ALLOWED, "The query names " + SafeText.identifier(name)
                + ", which is not an allowlisted table of this source.");
    }

    /** A column the query names that does not exist or is not allowlisted. */
    public static GuardException unknownColumn(String name) {
        return new GuardException(ErrorCode.UNKNOWN_COLUMN, "The query names the column " + SafeText.identifier(name)
                + ", which does not exist or is not visible.");
    }

    /**
     * The query reads a column that is not allowlisted without naming it (a whole-row reference, a
     * {@code *}, a {@code NATURAL} join): the message names no column.
     */
    public static GuardException hiddenColumnRead() {
        return new GuardException(ErrorCode.UNKNOWN_COLUMN, "The query reads a column that does not exist or is not "
                + "visible; name the columns to read (describe the source to list them).");
    }
}
