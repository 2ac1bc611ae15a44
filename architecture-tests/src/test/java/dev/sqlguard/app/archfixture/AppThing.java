package dev.sqlguard.app.archfixture;

/** A stand-in class in app's package but in none of its layers, for the rule proofs. */
public final class AppThing {
}
