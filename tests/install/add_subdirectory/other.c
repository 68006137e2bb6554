/* A library of the user's own, named like the one libshmem builds: the names must not collide. */
int user_shmem_helper(int x) { return x + 1; }
