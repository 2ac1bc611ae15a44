package dev.sqlguard.app.agent;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

import dev.sqlguard.domain.SafeText;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.verify.ClaimVerifier;
import dev.sqlguard.domain.verify.Evidence;
import dev.sqlguard.domain.verify.NumberClaim;
import dev.sqlguard.domain.verify.SupportKind;
import dev.sqlguard.domain.verify.VerificationContext;
import dev.sqlguard.domain.verify.VerificationReport;

/**
 * The production {@link AnswerVerifier}: core-domain's {@link ClaimVerifier} over every result
 * table of the conversation (complete unless truncated, so its derived rules know when a column
 * sum or row count is trustworthy) plus the other values the model was shown. The question is the
 * verification context, so numbers named in it (a year, a threshold) need no support.
 */
public final class DomainAnswerVerifier implements AnswerVerifier {
    private final ClaimVerifier verifier;

    public DomainAnswerVerifier(ClaimVerifier verifier) {
        this.verifier = requireNonNull(verifier, "verifier is null");
    }

    /** The standard rules, derived values accepted. */
    public static DomainAnswerVerifier standard() {
        return new DomainAnswerVerifier(new ClaimVerifier());
    }

    @Override
    public ClaimCheck verify(String answer, String question, ConversationEvidence conversation) {
        Evidence.Builder evidence = Evidence.builder();
        for (ToolResult result : conversation.results()) {
            evidence.table("result " + SafeText.identifier(result.id()), result.columns().stream().map(c -> c.name()).toList(),
                    result.rows(), !result.truncated());
        }
        for (Object value : conversation.values()) {
            evidence.value("a value shown to the model", value);
        }
        VerificationReport report = verifier.verify(answer, evidence.build(), VerificationContext.ofQuestion(question));
        List<String> supported = new ArrayList<>();
        List<String> derived = new ArrayList<>();
        List<String> exempt = new ArrayList<>();
        for (NumberClaim claim : report.claims()) {
            if (claim.support().isEmpty()) {
                continue;
            }
            SupportKind kind = claim.support().get().kind();
            switch (kind) {
                case EVIDENCE -> supported.add(claim.text());
                case DERIVED -> derived.add(claim.text() + " (" + claim.support().get().detail() + ")");
                case EXEMPT -> exempt.add(claim.text());
            }
        }
        return new ClaimCheck(supported, derived, report.unsupportedTexts(), exempt);
    }
}
