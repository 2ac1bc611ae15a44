package dev.sqlguard.domain.verify;

/** Why a number counts as supported. */
public enum SupportKind {
    /** It matches a value in the tool results. */
    EVIDENCE,
    /** It matches a value computed from the tool results by one of the bounded derived rules. */
    DERIVED,
    /** It needs no support under one of the exemption rules. */
    EXEMPT
}
