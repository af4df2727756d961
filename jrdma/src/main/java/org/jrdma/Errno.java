package org.jrdma;

/**
 * The symbolic names and glibc {@code strerror} texts of the Linux errno values (1 to 133; 41
 * and 58 are unused), so that a {@link SysException} reads well without a native call. Values
 * are those of Linux on x86-64 and arm64 ({@code asm-generic/errno-base.h},
 * {@code asm-generic/errno.h}); a test checks the table against the C library.
 */
final class Errno {
    /** An errno value's symbolic name and its glibc {@code strerror} text. */
    record Entry(String name, String text) {
    }

    private Errno() {
    }

    /** The name and text of {@code errno}, or null for a value Linux does not define. */
    static Entry lookup(int errno) {
        return switch (errno) {
            case 1 -> new Entry("EPERM", "Operation not permitted");
            case 2 -> new Entry("ENOENT", "No such file or directory");
            case 3 -> new Entry("ESRCH", "No such process");
            case 4 -> new Entry("EINTR", "Interrupted system call");
            case 5 -> new Entry("EIO", "Input/output error");
            case 6 -> new Entry("ENXIO", "No such device or address");
            case 7 -> new Entry("E2BIG", "Argument list too long");
            case 8 -> new Entry("ENOEXEC", "Exec format error");
            case 9 -> new Entry("EBADF", "Bad file descriptor");
            case 10 -> new Entry("ECHILD", "No child processes");
            case 11 -> new Entry("EAGAIN", "Resource temporarily unavailable");
            case 12 -> new Entry("ENOMEM", "Cannot allocate memory");
            case 13 -> new Entry("EACCES", "Permission denied");
            case 14 -> new Entry("EFAULT", "Bad address");
            case 15 -> new Entry("ENOTBLK", "Block device required");
            case 16 -> new Entry("EBUSY", "Device or resource busy");
            case 17 -> new Entry("EEXIST", "File exists");
            case 18 -> new Entry("EXDEV", "Invalid cross-device link");
            case 19 -> new Entry("ENODEV", "No such device");
            case 20 -> new Entry("ENOTDIR", "Not a directory");
            case 21 -> new Entry("EISDIR", "Is a directory");
            case 22 -> new Entry("EINVAL", "Invalid argument");
            case 23 -> new Entry("ENFILE", "Too many open files in system");
            case 24 -> new Entry("EMFILE", "Too many open files");
            case 25 -> new Entry("ENOTTY", "Inappropriate ioctl for device");
            case 26 -> new Entry("ETXTBSY", "Text file busy");
            case 27 -> new Entry("EFBIG", "File too large");
            case 28 -> new Entry("ENOSPC", "No space left on device");
            case 29 -> new Entry("ESPIPE", "Illegal seek");
            case 30 -> new Entry("EROFS", "Read-only file system");
            case 31 -> new Entry("EMLINK", "Too many links");
            case 32 -> new Entry("EPIPE", "Broken pipe");
            case 33 -> new Entry("EDOM", "Numerical argument out of domain");
            case 34 -> new Entry("ERANGE", "Numerical result out of range");
            case 35 -> new Entry("EDEADLK", "Resource deadlock avoided");
            case 36 -> new Entry("ENAMETOOLONG", "File name too long");
            case 37 -> new Entry("ENOLCK", "No locks available");
            case 38 -> new Entry("ENOSYS", "Function not implemented");
            case 39 -> new Entry("ENOTEMPTY", "Directory not empty");
            case 40 -> new Entry("ELOOP", "Too many levels of symbolic links");
            case 42 -> new Entry("ENOMSG", "No message of desired type");
            case 43 -> new Entry("EIDRM", "Identifier removed");
            case 44 -> new Entry("ECHRNG", "Channel number out of range");
            case 45 -> new Entry("EL2NSYNC", "Level 2 not synchronized");
            case 46 -> new Entry("EL3HLT", "Level 3 halted");
            case 47 -> new Entry("EL3RST", "Level 3 reset");
            case 48 -> new Entry("ELNRNG", "Link number out of range");
            case 49 -> new Entry("EUNATCH", "Protocol driver not attached");
            case 50 -> new Entry("ENOCSI", "No CSI structure available");
            case 51 -> new Entry("EL2HLT", "Level 2 halted");
            case 52 -> new Entry("EBADE", "Invalid exchange");
            case 53 -> new Entry("EBADR", "Invalid request descriptor");
            case 54 -> new Entry("EXFULL", "Exchange full");
            case 55 -> new Entry("ENOANO", "No anode");
            case 56 -> new Entry("EBADRQC", "Invalid request code");
            case 57 -> new Entry("EBADSLT", "Invalid slot");
            case 59 -> new Entry("EBFONT", "Bad font file format");
            case 60 -> new Entry("ENOSTR", "Device not a stream");
            case 61 -> new Entry("ENODATA", "No data available");
            case 62 -> new Entry("ETIME", "Timer expired");
            case 63 -> new Entry("ENOSR", "Out of streams resources");
            case 64 -> new Entry("ENONET", "Machine is not on the network");
            case 65 -> new Entry("ENOPKG", "Package not installed");
            case 66 -> new Entry("EREMOTE", "Object is remote");
            case 67 -> new Entry("ENOLINK", "Link has been severed");
            case 68 -> new Entry("EADV", "Advertise error");
            case 69 -> new Entry("ESRMNT", "Srmount error");
            case 70 -> new Entry("ECOMM", "Communication error on send");
            case 71 -> new Entry("EPROTO", "Protocol error");
            case 72 -> new Entry("EMULTIHOP", "Multihop attempted");
            case 73 -> new Entry("EDOTDOT", "RFS specific error");
            case 74 -> new Entry("EBADMSG", "Bad message");
            case 75 -> new Entry("EOVERFLOW", "Value too large for defined data type");
            case 76 -> new Entry("ENOTUNIQ", "Name not unique on network");
            case 77 -> new Entry("EBADFD", "File descriptor in bad state");
            case 78 -> new Entry("EREMCHG", "Remote address changed");
            case 79 -> new Entry("ELIBACC", "Can not access a needed shared library");
            case 80 -> new Entry("ELIBBAD", "Accessing a corrupted shared library");
            case 81 -> new Entry("ELIBSCN", ".lib section in a.out corrupted");
            case 82 -> new Entry("ELIBMAX", "Attempting to link in too many shared libraries");
            case 83 -> new Entry("ELIBEXEC", "Cannot exec a shared library directly");
            case 84 -> new Entry("EILSEQ", "Invalid or incomplete multibyte or wide character");
            case 85 -> new Entry("ERESTART", "Interrupted system call should be restarted");
            case 86 -> new Entry("ESTRPIPE", "Streams pipe error");
            case 87 -> new Entry("EUSERS", "Too many users");
            case 88 -> new Entry("ENOTSOCK", "Socket operation on non-socket");
            case 89 -> new Entry("EDESTADDRREQ", "Destination address required");
            case 90 -> new Entry("EMSGSIZE", "Message too long");
            case 91 -> new Entry("EPROTOTYPE", "Protocol wrong type for socket");
            case 92 -> new Entry("ENOPROTOOPT", "Protocol not available");
            case 93 -> new Entry("EPROTONOSUPPORT", "Protocol not supported");
            case 94 -> new Entry("ESOCKTNOSUPPORT", "Socket type not supported");
            case 95 -> new Entry("EOPNOTSUPP", "Operation not supported");
            case 96 -> new Entry("EPFNOSUPPORT", "Protocol family not supported");
            case 97 -> new Entry("EAFNOSUPPORT", "Address family not supported by protocol");
            case 98 -> new Entry("EADDRINUSE", "Address already in use");
            case 99 -> new Entry("EADDRNOTAVAIL", "Cannot assign requested address");
            case 100 -> new Entry("ENETDOWN", "Network is down");
            case 101 -> new Entry("ENETUNREACH", "Network is unreachable");
            case 102 -> new Entry("ENETRESET", "Network dropped connection on reset");
            case 103 -> new Entry("ECONNABORTED", "Software caused connection abort");
            case 104 -> new Entry("ECONNRESET", "Connection reset by peer");
            case 105 -> new Entry("ENOBUFS", "No buffer space available");
            case 106 -> new Entry("EISCONN", "Transport endpoint is already connected");
            case 107 -> new Entry("ENOTCONN", "Transport endpoint is not connected");
            case 108 -> new Entry("ESHUTDOWN", "Cannot send after transport endpoint shutdown");
            case 109 -> new Entry("ETOOMANYREFS", "Too many references: cannot splice");
            case 110 -> new Entry("ETIMEDOUT", "Connection timed out");
            case 111 -> new Entry("ECONNREFUSED", "Connection refused");
            case 112 -> new Entry("EHOSTDOWN", "Host is down");
            case 113 -> new Entry("EHOSTUNREACH", "No route to host");
            case 114 -> new Entry("EALREADY", "Operation already in progress");
            case 115 -> new Entry("EINPROGRESS", "Operation now in progress");
            case 116 -> new Entry("ESTALE", "Stale file handle");
            case 117 -> new Entry("EUCLEAN", "Structure needs cleaning");
            case 118 -> new Entry("ENOTNAM", "Not a XENIX named type file");
            case 119 -> new Entry("ENAVAIL", "No XENIX semaphores available");
            case 120 -> new Entry("EISNAM", "Is a named type file");
            case 121 -> new Entry("EREMOTEIO", "Remote I/O error");
            case 122 -> new Entry("EDQUOT", "Disk quota exceeded");
            case 123 -> new Entry("ENOMEDIUM", "No medium found");
            case 124 -> new Entry("EMEDIUMTYPE", "Wrong medium type");
            case 125 -> new Entry("ECANCELED", "Operation canceled");
            case 126 -> new Entry("ENOKEY", "Required key not available");
            case 127 -> new Entry("EKEYEXPIRED", "Key has expired");
            case 128 -> new Entry("EKEYREVOKED", "Key has been revoked");
            case 129 -> new Entry("EKEYREJECTED", "Key was rejected by service");
            case 130 -> new Entry("EOWNERDEAD", "Owner died");
            case 131 -> new Entry("ENOTRECOVERABLE", "State not recoverable");
            case 132 -> new Entry("ERFKILL", "Operation not possible due to RF-kill");
            case 133 -> new Entry("EHWPOISON", "Memory page has hardware error");
            default -> null;
        };
    }

    /** The glibc {@code strerror} text of {@code errno}, {@code Unknown error N} if Linux has none. */
    static String strerror(int errno) {
        Entry entry = lookup(errno);
        return entry != null ? entry.text() : errno == 0 ? "Success" : "Unknown error " + errno;
    }
}
