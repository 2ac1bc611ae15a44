package dev.sqlguard.ports.archfixture;

import com.fasterxml.jackson.databind.ObjectMapper;

/** Deliberately bad: a port that depends on Jackson. */
public final class PortClassUsingJackson {
    public String json(Object value) throws Exception {
        return new ObjectMapper().writeValueAsString(value);
    }
}
