/* empty: each public header is compiled alone with -include */
