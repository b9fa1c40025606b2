/*
 * libgq-client-socket.so: the unix-socket calls of the gq client, for a faster start.
 *
 * The JDK's unix-domain SocketChannel initialises the security providers on first use (it keeps
 * a SecureRandom for temporary socket names), which costs a fresh client JVM about 20 ms of its
 * 100 ms budget. These few calls are all the client needs (listen and accept serve the training
 * run that records the client's AOT cache; peerUid0 tells who listens before anything is sent). The client falls back to the JDK's channel when this
 * library is missing or cannot be loaded.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <jni.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define CHUNK 65536

/* A new unix stream socket and the address of path; -errno when the path does not fit. */
static int open_socket(JNIEnv *env, jbyteArray path, struct sockaddr_un *addr) {
  jsize len = (*env)->GetArrayLength(env, path);
  if (len <= 0 || (size_t)len >= sizeof(addr->sun_path)) return -ENAMETOOLONG;
  memset(addr, 0, sizeof(*addr));
  addr->sun_family = AF_UNIX;
  (*env)->GetByteArrayRegion(env, path, 0, len, (jbyte *)addr->sun_path);
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  return fd < 0 ? -errno : fd;
}

/* connect0(path bytes) -> fd, or -errno */
JNIEXPORT jint JNICALL Java_dev_gq_client_NativeSocket_connect0(JNIEnv *env, jclass cls,
                                                                jbyteArray path) {
  (void)cls;
  struct sockaddr_un addr;
  int fd = open_socket(env, path, &addr);
  if (fd < 0) return fd;
  int rc;
  do {
    rc = connect(fd, (struct sockaddr *)&addr, sizeof(addr));
  } while (rc < 0 && errno == EINTR);
  if (rc < 0) {
    int e = errno;
    close(fd);
    return -e;
  }
  return fd;
}

/* listen0(path bytes) -> listening fd, or -errno */
JNIEXPORT jint JNICALL Java_dev_gq_client_NativeSocket_listen0(JNIEnv *env, jclass cls,
                                                               jbyteArray path) {
  (void)cls;
  struct sockaddr_un addr;
  int fd = open_socket(env, path, &addr);
  if (fd < 0) return fd;
  if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 || listen(fd, 8) < 0) {
    int e = errno;
    close(fd);
    return -e;
  }
  return fd;
}

/* accept0(listening fd) -> connected fd, or -errno */
JNIEXPORT jint JNICALL Java_dev_gq_client_NativeSocket_accept0(JNIEnv *env, jclass cls, jint fd) {
  (void)env;
  (void)cls;
  int c;
  do {
    c = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
  } while (c < 0 && errno == EINTR);
  return c < 0 ? -errno : c;
}

/* read0(fd, buf, off, len) -> bytes read, 0 at end of stream, or -errno */
JNIEXPORT jint JNICALL Java_dev_gq_client_NativeSocket_read0(JNIEnv *env, jclass cls, jint fd,
                                                             jbyteArray buf, jint off, jint len) {
  (void)cls;
  char tmp[CHUNK];
  if (len > CHUNK) len = CHUNK;
  ssize_t n;
  do {
    n = read(fd, tmp, (size_t)len);
  } while (n < 0 && errno == EINTR);
  if (n < 0) return -errno;
  if (n > 0) (*env)->SetByteArrayRegion(env, buf, off, (jsize)n, (const jbyte *)tmp);
  return (jint)n;
}

/* write0(fd, buf, off, len) -> bytes written, or -errno; never raises SIGPIPE */
JNIEXPORT jint JNICALL Java_dev_gq_client_NativeSocket_write0(JNIEnv *env, jclass cls, jint fd,
                                                              jbyteArray buf, jint off, jint len) {
  (void)cls;
  char tmp[CHUNK];
  if (len > CHUNK) len = CHUNK;
  (*env)->GetByteArrayRegion(env, buf, off, len, (jbyte *)tmp);
  ssize_t n;
  do {
    n = send(fd, tmp, (size_t)len, MSG_NOSIGNAL);
  } while (n < 0 && errno == EINTR);
  return n < 0 ? -errno : (jint)n;
}

/* shutdown0(fd) -> 0, or -errno; wakes a read blocked on fd in another thread (close would not) */
JNIEXPORT jint JNICALL Java_dev_gq_client_NativeSocket_shutdown0(JNIEnv *env, jclass cls, jint fd) {
  (void)env;
  (void)cls;
  return shutdown(fd, SHUT_RDWR) < 0 ? -errno : 0;
}

/* close0(fd) -> 0, or -errno */
JNIEXPORT jint JNICALL Java_dev_gq_client_NativeSocket_close0(JNIEnv *env, jclass cls, jint fd) {
  (void)env;
  (void)cls;
  return close(fd) < 0 ? -errno : 0;
}

/* peerUid0(fd) -> the uid of the process at the other end of a connected socket, or -errno */
JNIEXPORT jlong JNICALL Java_dev_gq_client_NativeSocket_peerUid0(JNIEnv *env, jclass cls, jint fd) {
  (void)env;
  (void)cls;
  struct ucred cred;
  socklen_t len = sizeof(cred);
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0) return -errno;
  return (jlong)cred.uid;
}

/* strerror0(errno) -> the C library's text for it */
JNIEXPORT jstring JNICALL Java_dev_gq_client_NativeSocket_strerror0(JNIEnv *env, jclass cls,
                                                                    jint err) {
  (void)cls;
  return (*env)->NewStringUTF(env, strerror(err));
}
