package dev.sqlguard.app.internal.cli.archfixture;

/** A stand-in class in the CLI layer's package, for the rule proofs. */
public final class CliThing {
}
