package dev.sqlguard.app.archfixture;

/** A stand-in class in app's package, for the rule proofs. */
public final class AppThing {
}
