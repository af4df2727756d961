package org.jrdma.tools;

import picocli.CommandLine.Option;

/**
 * python-rdma's {@code -D}, {@code -G} and {@code -L}: what a command's TARGET arguments are read
 * as ({@link PathTarget.Kind}), for the commands that take python-rdma's targets.
 */
public final class PathTargetOptions {
    @Option(names = {"-D", "--Direct"}, description = "a target is a directed route (a bare number N is the route N,)")
    boolean direct;

    @Option(names = {"-G", "--Guid"}, description = "a target is a port GUID (a bare hex number is read as a GUID)")
    boolean guid;

    @Option(names = {"-L", "--Lid"}, description = "a target is a LID")
    boolean lid;

    /** How the targets are read: as the option given says, else as any form ({@link PathTarget.Kind#ANY}). */
    public PathTarget.Kind kind() {
        return direct ? PathTarget.Kind.ROUTE : guid ? PathTarget.Kind.GUID : lid ? PathTarget.Kind.LID : PathTarget.Kind.ANY;
    }
}
