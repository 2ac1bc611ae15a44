package dev.sqlguard.jdbc.ansi.archfixture;

import dev.sqlguard.jdbc.ansi.AnsiErrors;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;

/** Allowed: the ANSI renderer reads JSqlParser trees and refuses through the kit. */
public final class AnsiThing {
    public PlainSelect plain(Select select) {
        if (!(select instanceof PlainSelect p)) {
            throw AnsiErrors.construct("Only a plain SELECT.");
        }
        return p;
    }
}
