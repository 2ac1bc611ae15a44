package dev.sqlguard.app.agent;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A test verifier: every number written in the answer (thousands separators removed) must equal,
 * at the precision shown, a numeric value of the evidence or a number in the question.
 */
final class NumberMatchingVerifier implements AnswerVerifier {
    private static final Pattern NUMBER = Pattern.compile("-?\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|-?\\d+(?:\\.\\d+)?");

    @Override
    public ClaimCheck verify(String answer, String question, ConversationEvidence conversation) {
        List<Object> evidence = conversation.allValues();
        List<String> supported = new ArrayList<>();
        List<String> unsupported = new ArrayList<>();
        List<String> exempt = new ArrayList<>();
        Matcher m = NUMBER.matcher(answer);
        while (m.find()) {
            String written = m.group();
            BigDecimal value = new BigDecimal(written.replace(",", ""));
            if (Pattern.compile("(?<![\\d.,])" + Pattern.quote(written) + "(?![\\d.,]\\d)").matcher(question).find()) {
                exempt.add(written);
                continue;
            }
            BigDecimal half = BigDecimal.ONE.movePointLeft(Math.max(0, value.scale())).divide(BigDecimal.valueOf(2));
            boolean found = evidence.stream().filter(Number.class::isInstance)
                    .map(n -> new BigDecimal(n.toString()))
                    .anyMatch(e -> e.subtract(value).abs().compareTo(half) <= 0);
            (found ? supported : unsupported).add(written);
        }
        return new ClaimCheck(supported, unsupported, exempt);
    }
}
