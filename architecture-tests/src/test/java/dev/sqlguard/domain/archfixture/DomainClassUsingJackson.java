package dev.sqlguard.domain.archfixture;

import com.fasterxml.jackson.databind.ObjectMapper;

/** Deliberately bad: a domain class that uses a third-party library. */
public final class DomainClassUsingJackson {
    public ObjectMapper mapper() {
        return new ObjectMapper();
    }
}
