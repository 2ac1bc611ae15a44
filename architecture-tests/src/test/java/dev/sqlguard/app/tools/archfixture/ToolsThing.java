package dev.sqlguard.app.tools.archfixture;

/** A stand-in class in the tools layer's package, for the rule proofs. */
public final class ToolsThing {
}
