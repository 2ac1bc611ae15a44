package dev.sqlguard.app.internal.cli;

import dev.sqlguard.app.fake.FakeEngineFactory;

/**
 * Engine plug-ins registered nowhere on the class path: {@link PluginFolderTest} packages them,
 * with the fake engine's classes, into a jar with its own {@code META-INF/services} file.
 */
public final class PluginEngines {
    private PluginEngines() {
    }

    /** The fake engine under the name {@code plugged}. */
    public static final class Plugged extends FakeEngineFactory {
        public Plugged() {
            super("plugged");
        }
    }

    /** A second engine named {@code fake}, a name the class path already has. */
    public static final class SecondFake extends FakeEngineFactory {
        public SecondFake() {
            super("fake");
        }
    }
}
