package dev.sqlguard.testing.archfixture;

import dev.sqlguard.app.archfixture.AppThing;

/** Deliberately bad: the testing kit using the app. */
public final class KitClassUsingApp {
    public String app() {
        return new AppThing().toString();
    }
}
