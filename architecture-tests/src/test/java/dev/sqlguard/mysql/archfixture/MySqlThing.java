package dev.sqlguard.mysql.archfixture;

/** A stand-in class in the MySQL adapter's package, for the rule proofs. */
public final class MySqlThing {
}
