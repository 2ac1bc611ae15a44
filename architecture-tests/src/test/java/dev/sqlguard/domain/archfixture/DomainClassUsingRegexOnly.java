package dev.sqlguard.domain.archfixture;

import java.util.regex.Pattern;

/** A good domain class: plain JDK only. */
public final class DomainClassUsingRegexOnly {
    public boolean plain(String s) {
        return Pattern.matches("[a-z]+", s);
    }
}
