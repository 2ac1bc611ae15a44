package dev.sqlguard.llm.archfixture;

import javax.script.ScriptEngineManager;

/** Deliberately bad: a script engine. */
public final class LlmClassUsingScriptEngine {
    public Object eval(String code) throws Exception {
        return new ScriptEngineManager().getEngineByName("js").eval(code);
    }
}
