/**
 * Programs that run {@code ibtool} on the real peers: {@link org.jrdma.examples.demo.Demo}, the
 * README's main job ({@code bin/jrdma-demo}), and {@link org.jrdma.examples.demo.AotTraining}, the
 * training discovery that records {@code bin/ibtool}'s JDK AOT cache ({@code bin/setup}). They
 * need the peers ({@code jrdma-peers}), which {@code ibtool.jar} does not ship.
 */
package org.jrdma.examples.demo;
