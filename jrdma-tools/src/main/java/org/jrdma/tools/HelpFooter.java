package org.jrdma.tools;

/**
 * A command whose full help ({@code ibtool help COMMAND}, python-rdma's {@code help}) ends with a
 * section made when the help is printed, as python-rdma's {@code *_help} functions add the valid
 * operations, methods and attributes to a command's help: nothing of it is built when the command
 * only runs.
 */
public interface HelpFooter {
    /** The text printed after the command's options in its full help. */
    String helpFooter();
}
