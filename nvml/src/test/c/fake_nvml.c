/*
 * A stand-in for libnvidia-ml.so.1 with two devices, for testing the JNA binding without a GPU.
 * Device 0 runs two compute processes (one whose memory the driver does not report), device 1
 * none. Tests steer it through the fake_nvml_* functions: make one function fail (on one device or
 * everywhere) and make processes appear between the size query and the fetch.
 */
#include <stddef.h>
#include <string.h>

#ifdef GQ_FAKE_NVML_OWN_TYPES
/*
 * Only where the official header is missing: the few declarations of nvml.h that the fake needs,
 * written down by hand. The tests built this way say that the layout check was skipped.
 */
typedef int nvmlReturn_t;
typedef struct nvmlDevice_st *nvmlDevice_t;

typedef struct {
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
} nvmlMemory_t;

typedef struct { unsigned int gpu; unsigned int memory; } nvmlUtilization_t;

typedef struct nvmlEventSet_st *nvmlEventSet_t;

typedef struct {
    nvmlDevice_t device;
    unsigned long long eventType;
    unsigned long long eventData;
    unsigned int gpuInstanceId;
    unsigned int computeInstanceId;
} nvmlEventData_t;

typedef int nvmlTemperatureSensors_t;
typedef int nvmlMemoryErrorType_t;
typedef int nvmlEccCounterType_t;
typedef int nvmlEnableState_t;

typedef struct {
    unsigned int pid;
    unsigned long long usedGpuMemory;
    unsigned int gpuInstanceId;
    unsigned int computeInstanceId;
} nvmlProcessInfo_t;

enum {
    NVML_SUCCESS = 0, NVML_ERROR_UNINITIALIZED = 1, NVML_ERROR_INVALID_ARGUMENT = 2,
    NVML_ERROR_NOT_SUPPORTED = 3, NVML_ERROR_INSUFFICIENT_SIZE = 7, NVML_ERROR_DRIVER_NOT_LOADED = 9,
    NVML_ERROR_TIMEOUT = 10,
    NVML_ERROR_GPU_IS_LOST = 15, NVML_ERROR_UNKNOWN = 999
};
#define NVML_DEVICE_UUID_V2_BUFFER_SIZE 96
#define NVML_DEVICE_NAME_V2_BUFFER_SIZE 96
#define NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE 80
#define NVML_VALUE_NOT_AVAILABLE (-1)
#define NVML_TEMPERATURE_GPU 0
#define NVML_MEMORY_ERROR_TYPE_UNCORRECTED 1
#define NVML_VOLATILE_ECC 0
#define NVML_FEATURE_ENABLED 1
#define nvmlEventTypeXidCriticalError 0x0000000000000008LL
#else
/* The official header (libnvidia-ml-dev): every signature and struct below is checked against it. */
#include <nvml.h>
#endif

#define MAX_PROCS 64
#define NOT_AVAILABLE ((unsigned long long) NVML_VALUE_NOT_AVAILABLE)
#define MIB (1024ULL * 1024ULL)

struct nvmlDevice_st {
    const char *uuid;
    const char *name;
    unsigned long long total;
    unsigned int count;
    unsigned int pids[MAX_PROCS];
    unsigned long long used[MAX_PROCS];
    int figures;             /* 0: every figure NVML_ERROR_NOT_SUPPORTED */
    unsigned long long ecc;  /* uncorrectable, volatile */
    int retired_pending;
    int remap_failed;
    int lost;                /* every query NVML_ERROR_GPU_IS_LOST */
    int registered;
};

#define MAX_EVENTS 16
struct nvmlEventSet_st { int unused; };
static struct nvmlEventSet_st event_set;
static int sets_open;
static unsigned long long queued_xid[MAX_EVENTS];
static int queued_device[MAX_EVENTS];
static int queued;

static struct nvmlDevice_st devices[2];
static int init_count;
static char failing_function[128];
static int failing_index = -1; /* -1: every device, and the calls without a device */
static nvmlReturn_t failing_code;
static unsigned int growth;
static int growth_repeats;

/* Static, so that a second copy of this library loaded beside the first resets its own state. */
static void reset(void) {
    memset(devices, 0, sizeof devices);
    devices[0].uuid = "GPU-fa4e0000-0000-4000-8000-000000000000";
    devices[0].name = "Fake GPU Alpha";
    devices[0].total = 81920 * MIB;
    devices[0].count = 2;
    devices[0].pids[0] = 4242;
    devices[0].used[0] = 1024 * MIB;
    devices[0].pids[1] = 4343;
    devices[0].used[1] = NOT_AVAILABLE;
    devices[1].uuid = "GPU-fa4e1111-1111-4111-8111-111111111111";
    devices[1].name = "Fake GPU Beta";
    devices[1].total = 40960 * MIB;
    devices[0].figures = 1;
    queued = 0;
    sets_open = 0;
    init_count = 0;
    failing_function[0] = '\0';
    failing_index = -1;
    failing_code = 0;
    growth = 0;
    growth_repeats = 0;
}

__attribute__((constructor)) static void fake_nvml_load(void) { reset(); }

void fake_nvml_reset(void) { reset(); }

/* From now on, `function` returns `code` on device `index` (-1: everywhere). */
void fake_nvml_fail(const char *function, int index, int code) {
    strncpy(failing_function, function, sizeof failing_function - 1);
    failing_function[sizeof failing_function - 1] = '\0';
    failing_index = index;
    failing_code = (nvmlReturn_t) code;
}

/*
 * The next answer of "insufficient size" on device 0 starts `n` more processes right after it
 * answers, as if they started between two calls; with `repeat` set, every such answer does.
 */
void fake_nvml_grow(unsigned int n, int repeat) {
    growth = n;
    growth_repeats = repeat;
}

unsigned int fake_nvml_init_count(void) { return init_count; }

/* Device `index` reports a critical Xid error `xid` at the next wait on an event set. */
void fake_nvml_xid(int index, unsigned long long xid) {
    if (queued < MAX_EVENTS) {
        queued_device[queued] = index;
        queued_xid[queued++] = xid;
    }
}

/* Device `index`'s health: uncorrectable ECC errors, retired pages pending, failed row remap, lost. */
void fake_nvml_health(int index, unsigned long long ecc, int retired_pending, int remap_failed, int lost) {
    devices[index].ecc = ecc;
    devices[index].retired_pending = retired_pending;
    devices[index].remap_failed = remap_failed;
    devices[index].lost = lost;
}

/* How many event sets are made and not freed. */
int fake_nvml_event_sets_open(void) { return sets_open; }

unsigned int fake_nvml_sizeof_process_info(void) { return sizeof(nvmlProcessInfo_t); }

/* 1 when this copy was compiled against the official nvml.h, 0 with the hand-written types. */
int fake_nvml_official_header(void) {
#ifdef GQ_FAKE_NVML_OWN_TYPES
    return 0;
#else
    return 1;
#endif
}

/*
 * The layout the C compiler gives the structs and constants the Java binding mirrors, by name:
 * "sizeof nvmlProcessInfo_t", "offsetof nvmlProcessInfo_t.usedGpuMemory", a constant's name, ...;
 * -1 for a name it does not know.
 */
long long fake_nvml_layout(const char *what) {
    static const struct { const char *name; long long value; } table[] = {
        {"sizeof nvmlProcessInfo_t", sizeof(nvmlProcessInfo_t)},
        {"offsetof nvmlProcessInfo_t.pid", offsetof(nvmlProcessInfo_t, pid)},
        {"offsetof nvmlProcessInfo_t.usedGpuMemory", offsetof(nvmlProcessInfo_t, usedGpuMemory)},
        {"offsetof nvmlProcessInfo_t.gpuInstanceId", offsetof(nvmlProcessInfo_t, gpuInstanceId)},
        {"offsetof nvmlProcessInfo_t.computeInstanceId",
            offsetof(nvmlProcessInfo_t, computeInstanceId)},
        {"sizeof nvmlMemory_t", sizeof(nvmlMemory_t)},
        {"offsetof nvmlMemory_t.total", offsetof(nvmlMemory_t, total)},
        {"offsetof nvmlMemory_t.free", offsetof(nvmlMemory_t, free)},
        {"offsetof nvmlMemory_t.used", offsetof(nvmlMemory_t, used)},
        {"NVML_DEVICE_UUID_V2_BUFFER_SIZE", NVML_DEVICE_UUID_V2_BUFFER_SIZE},
        {"NVML_DEVICE_NAME_V2_BUFFER_SIZE", NVML_DEVICE_NAME_V2_BUFFER_SIZE},
        {"NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE", NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE},
        {"NVML_VALUE_NOT_AVAILABLE", (long long) (unsigned long long) NVML_VALUE_NOT_AVAILABLE},
        {"sizeof nvmlUtilization_t", sizeof(nvmlUtilization_t)},
        {"offsetof nvmlUtilization_t.gpu", offsetof(nvmlUtilization_t, gpu)},
        {"offsetof nvmlUtilization_t.memory", offsetof(nvmlUtilization_t, memory)},
        {"sizeof nvmlEventData_t", sizeof(nvmlEventData_t)},
        {"offsetof nvmlEventData_t.device", offsetof(nvmlEventData_t, device)},
        {"offsetof nvmlEventData_t.eventType", offsetof(nvmlEventData_t, eventType)},
        {"offsetof nvmlEventData_t.eventData", offsetof(nvmlEventData_t, eventData)},
        {"offsetof nvmlEventData_t.gpuInstanceId", offsetof(nvmlEventData_t, gpuInstanceId)},
        {"offsetof nvmlEventData_t.computeInstanceId", offsetof(nvmlEventData_t, computeInstanceId)},
        {"NVML_TEMPERATURE_GPU", NVML_TEMPERATURE_GPU},
        {"NVML_MEMORY_ERROR_TYPE_UNCORRECTED", NVML_MEMORY_ERROR_TYPE_UNCORRECTED},
        {"NVML_VOLATILE_ECC", NVML_VOLATILE_ECC},
        {"NVML_FEATURE_ENABLED", NVML_FEATURE_ENABLED},
        {"nvmlEventTypeXidCriticalError", nvmlEventTypeXidCriticalError},
        {"NVML_ERROR_NOT_SUPPORTED", NVML_ERROR_NOT_SUPPORTED},
        {"NVML_ERROR_TIMEOUT", NVML_ERROR_TIMEOUT},
        {"NVML_ERROR_GPU_IS_LOST", NVML_ERROR_GPU_IS_LOST},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (strcmp(what, table[i].name) == 0) return table[i].value;
    }
    return -1;
}

static int index_of(nvmlDevice_t d) { return d == &devices[0] ? 0 : d == &devices[1] ? 1 : -2; }

static nvmlReturn_t steered(const char *function, int index) {
    if (failing_code != 0 && strcmp(function, failing_function) == 0
            && (failing_index == -1 || failing_index == index)) {
        return failing_code;
    }
    return NVML_SUCCESS;
}

static nvmlReturn_t enter(const char *function, nvmlDevice_t d) {
    if (init_count == 0) return NVML_ERROR_UNINITIALIZED;
    if (d != NULL && index_of(d) < 0) return NVML_ERROR_INVALID_ARGUMENT;
    if (d != NULL && d->lost) return NVML_ERROR_GPU_IS_LOST;
    return steered(function, d == NULL ? -1 : index_of(d));
}

static nvmlReturn_t copy_string(const char *text, char *buf, unsigned int length) {
    if (buf == NULL) return NVML_ERROR_INVALID_ARGUMENT;
    if (strlen(text) + 1 > length) return NVML_ERROR_INSUFFICIENT_SIZE;
    strcpy(buf, text);
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlInit_v2(void) {
    nvmlReturn_t rc = steered(__func__, -1);
    if (rc == NVML_SUCCESS) init_count++;
    return rc;
}

nvmlReturn_t nvmlShutdown(void) {
    if (init_count == 0) return NVML_ERROR_UNINITIALIZED;
    init_count--;
    return NVML_SUCCESS;
}

const char *nvmlErrorString(nvmlReturn_t result) {
    switch (result) {
        case NVML_SUCCESS: return "Success";
        case NVML_ERROR_UNINITIALIZED: return "Uninitialized";
        case NVML_ERROR_INVALID_ARGUMENT: return "Invalid Argument";
        case NVML_ERROR_INSUFFICIENT_SIZE: return "Insufficient Size";
        case NVML_ERROR_DRIVER_NOT_LOADED: return "Driver Not Loaded";
        case NVML_ERROR_GPU_IS_LOST: return "GPU is lost";
        default: return "Unknown Error";
    }
}

nvmlReturn_t nvmlSystemGetDriverVersion(char *version, unsigned int length) {
    nvmlReturn_t rc = enter(__func__, NULL);
    return rc != NVML_SUCCESS ? rc : copy_string("999.12.34", version, length);
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *count) {
    nvmlReturn_t rc = enter(__func__, NULL);
    if (rc == NVML_SUCCESS) *count = 2;
    return rc;
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device) {
    if (init_count == 0) return NVML_ERROR_UNINITIALIZED;
    if (index >= 2) return NVML_ERROR_INVALID_ARGUMENT;
    nvmlReturn_t rc = steered(__func__, (int) index);
    if (rc == NVML_SUCCESS) *device = &devices[index];
    return rc;
}

nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t device, char *uuid, unsigned int length) {
    nvmlReturn_t rc = enter(__func__, device);
    return rc != NVML_SUCCESS ? rc : copy_string(device->uuid, uuid, length);
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length) {
    nvmlReturn_t rc = enter(__func__, device);
    return rc != NVML_SUCCESS ? rc : copy_string(device->name, name, length);
}

nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t *memory) {
    nvmlReturn_t rc = enter(__func__, device);
    if (rc != NVML_SUCCESS) return rc;
    unsigned long long used = 0;
    for (unsigned int i = 0; i < device->count; i++) {
        if (device->used[i] != NOT_AVAILABLE) used += device->used[i];
    }
    memory->total = device->total;
    memory->used = used;
    memory->free = device->total - used;
    return NVML_SUCCESS;
}

static void start_processes(struct nvmlDevice_st *d, unsigned int n) {
    for (unsigned int k = 0; k < n && d->count < MAX_PROCS; k++, d->count++) {
        d->pids[d->count] = 5000 + d->count;
        d->used[d->count] = MIB;
    }
}

nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(
        nvmlDevice_t device, unsigned int *infoCount, nvmlProcessInfo_t *infos) {
    nvmlReturn_t rc = enter(__func__, device);
    if (rc != NVML_SUCCESS) return rc;
    if (infoCount == NULL) return NVML_ERROR_INVALID_ARGUMENT;
    unsigned int capacity = *infoCount;
    *infoCount = device->count;
    if (capacity < device->count || (infos == NULL && device->count > 0)) {
        if (device == &devices[0]) {
            start_processes(device, growth);
            if (!growth_repeats) growth = 0;
        }
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    for (unsigned int i = 0; i < device->count; i++) {
        infos[i].pid = device->pids[i];
        infos[i].usedGpuMemory = device->used[i];
        infos[i].gpuInstanceId = 0xFFFFFFFFu;
        infos[i].computeInstanceId = 0xFFFFFFFFu;
    }
    return NVML_SUCCESS;
}

/* Device 0 gives every figure, device 1 none. */
nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t device, nvmlUtilization_t *utilization) {
    nvmlReturn_t rc = enter(__func__, device);
    if (rc != NVML_SUCCESS) return rc;
    if (!device->figures) return NVML_ERROR_NOT_SUPPORTED;
    utilization->gpu = 37;
    utilization->memory = 12;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t device, nvmlTemperatureSensors_t sensor, unsigned int *temp) {
    nvmlReturn_t rc = enter(__func__, device);
    if (rc != NVML_SUCCESS) return rc;
    if (!device->figures || sensor != NVML_TEMPERATURE_GPU) return NVML_ERROR_NOT_SUPPORTED;
    *temp = 61;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int *power) {
    nvmlReturn_t rc = enter(__func__, device);
    if (rc != NVML_SUCCESS) return rc;
    if (!device->figures) return NVML_ERROR_NOT_SUPPORTED;
    *power = 210400; /* milliwatts */
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t device, unsigned int *limit) {
    nvmlReturn_t rc = enter(__func__, device);
    if (rc != NVML_SUCCESS) return rc;
    if (!device->figures) return NVML_ERROR_NOT_SUPPORTED;
    *limit = 700000;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetTotalEccErrors(nvmlDevice_t device, nvmlMemoryErrorType_t errorType,
        nvmlEccCounterType_t counterType, unsigned long long *eccCounts) {
    nvmlReturn_t rc = enter(__func__, device);
    if (rc != NVML_SUCCESS) return rc;
    if (errorType != NVML_MEMORY_ERROR_TYPE_UNCORRECTED || counterType != NVML_VOLATILE_ECC)
        return NVML_ERROR_INVALID_ARGUMENT;
    *eccCounts = device->ecc;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetRetiredPagesPendingStatus(nvmlDevice_t device, nvmlEnableState_t *isPending) {
    nvmlReturn_t rc = enter(__func__, device);
    if (rc != NVML_SUCCESS) return rc;
    *isPending = device->retired_pending ? NVML_FEATURE_ENABLED : 0;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetRemappedRows(nvmlDevice_t device, unsigned int *corrRows, unsigned int *uncRows,
        unsigned int *isPending, unsigned int *failureOccurred) {
    nvmlReturn_t rc = enter(__func__, device);
    if (rc != NVML_SUCCESS) return rc;
    *corrRows = 0;
    *uncRows = 0;
    *isPending = 0;
    *failureOccurred = (unsigned int) device->remap_failed;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlEventSetCreate(nvmlEventSet_t *set) {
    nvmlReturn_t rc = enter(__func__, NULL);
    if (rc != NVML_SUCCESS) return rc;
    sets_open++;
    *set = &event_set;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceRegisterEvents(nvmlDevice_t device, unsigned long long eventTypes, nvmlEventSet_t set) {
    nvmlReturn_t rc = enter(__func__, device);
    if (rc != NVML_SUCCESS) return rc;
    if (set != &event_set || eventTypes != nvmlEventTypeXidCriticalError) return NVML_ERROR_INVALID_ARGUMENT;
    device->registered = 1;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlEventSetWait_v2(nvmlEventSet_t set, nvmlEventData_t *data, unsigned int timeoutms) {
    nvmlReturn_t rc = enter(__func__, NULL);
    if (rc != NVML_SUCCESS) return rc;
    if (set != &event_set || timeoutms != 0) return NVML_ERROR_INVALID_ARGUMENT; /* gq never blocks */
    while (queued > 0) {
        int index = queued_device[0];
        unsigned long long xid = queued_xid[0];
        queued--;
        memmove(queued_device, queued_device + 1, sizeof(int) * (size_t) queued);
        memmove(queued_xid, queued_xid + 1, sizeof(unsigned long long) * (size_t) queued);
        if (!devices[index].registered) continue;
        data->device = &devices[index];
        data->eventType = nvmlEventTypeXidCriticalError;
        data->eventData = xid;
        data->gpuInstanceId = 0xFFFFFFFFu;
        data->computeInstanceId = 0xFFFFFFFFu;
        return NVML_SUCCESS;
    }
    return NVML_ERROR_TIMEOUT;
}

nvmlReturn_t nvmlEventSetFree(nvmlEventSet_t set) {
    if (set != &event_set || sets_open == 0) return NVML_ERROR_INVALID_ARGUMENT;
    sets_open--;
    devices[0].registered = 0;
    devices[1].registered = 0;
    return NVML_SUCCESS;
}
