package dev.sqlguard.llm.internal;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.BodySubscriber;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Collects a response body up to a byte limit. A longer body is cut off: the subscription is
 * cancelled and the result is {@code null}, so a misbehaving endpoint cannot fill the heap.
 */
public final class BoundedBody implements BodySubscriber<byte[]> {
    private final int limit;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final CompletableFuture<byte[]> result = new CompletableFuture<>();
    private Flow.Subscription subscription;

    private BoundedBody(int limit) {
        this.limit = limit;
    }

    /** A handler whose body is {@code null} when it exceeds {@code limit} bytes. */
    public static BodyHandler<byte[]> handler(int limit) {
        return info -> new BoundedBody(limit);
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return result;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        this.subscription = s;
        s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        if (result.isDone()) {
            return;
        }
        for (ByteBuffer buffer : buffers) {
            if (bytes.size() + (long) buffer.remaining() > limit) {
                result.complete(null);
                subscription.cancel();
                return;
            }
            byte[] chunk = new byte[buffer.remaining()];
            buffer.get(chunk);
            bytes.write(chunk, 0, chunk.length);
        }
    }

    @Override
    public void onError(Throwable throwable) {
        result.completeExceptionally(throwable);
    }

    @Override
    public void onComplete() {
        result.complete(bytes.toByteArray());
    }
}
