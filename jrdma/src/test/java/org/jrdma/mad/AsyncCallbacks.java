package org.jrdma.mad;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/** The callbacks the tests of the engine's asynchronous requests hand it. */
final class AsyncCallbacks {
    private AsyncCallbacks() {
    }

    /** A callback that completes {@code f} with the answer or the failure, and records the name of the thread it ran on. */
    static <T> BiConsumer<T, RuntimeException> completing(CompletableFuture<T> f, List<String> threads) {
        return (answer, failure) -> {
            synchronized (threads) {
                threads.add(Thread.currentThread().getName());
            }
            if (failure != null) {
                f.completeExceptionally(failure);
            } else {
                f.complete(answer);
            }
        };
    }
}
