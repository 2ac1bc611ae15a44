/** The floor for any JVM tool: start, print one line, exit. */
public final class Hello {
    public static void main(String[] args) {
        System.out.println("hello");
    }
}
