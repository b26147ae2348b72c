/* aclnnop/aclnn_util.h - the export marker of the aclnn operator functions. */
#ifndef ACLNNOP_ACLNN_UTIL_H
#define ACLNNOP_ACLNN_UTIL_H

/* Exported with default visibility, whatever the library's default. */
#ifndef ACLNN_API
#define ACLNN_API __attribute__((visibility("default")))
#endif

#endif
