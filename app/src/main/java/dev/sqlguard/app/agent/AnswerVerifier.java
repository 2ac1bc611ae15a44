package dev.sqlguard.app.agent;

import java.util.List;

/**
 * Checks the numbers of an answer against the evidence of the conversation.
 *
 * <p>Evidence is every value of every tool result the model was shown; the question is context
 * (numbers named in it, such as a year, need no support).
 */
public interface AnswerVerifier {
    ClaimCheck verify(String answer, String question, List<Object> evidence);
}
