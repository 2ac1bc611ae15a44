package dev.sqlguard.app.agent;

/**
 * Checks the numbers of an answer against the evidence of the conversation.
 *
 * <p>Evidence is every value of every tool result the model was shown; the question is context
 * (numbers named in it, such as a year, need no support). Implementations must not throw for any
 * answer text; the planner treats a throwing verifier as "not verified".
 */
public interface AnswerVerifier {
    ClaimCheck verify(String answer, String question, ConversationEvidence evidence);
}
