/* eslint-disable */

// @ts-nocheck

// Generated from src/routeTree.gen.ts by scripts/lib/public-route-tree.ts (node scripts/gen-public-route-tree.ts): do not edit.
// The first download's route tree: every route but those of account/, auth/ and order/, which
// load on first use (src/router-lazy.ts).

import { Route as rootRouteImport } from './routes/__root'
import { Route as Char123LocaleChar125RouteRouteImport } from './routes/{-$locale}/route'
import { Route as Char123LocaleChar125IndexRouteImport } from './routes/{-$locale}/index'
import { Route as Char123LocaleChar125ContactRouteImport } from './routes/{-$locale}/contact'
import { Route as Char123LocaleChar125DroneVideoRouteImport } from './routes/{-$locale}/drone-video'
import { Route as Char123LocaleChar125ImpressumRouteImport } from './routes/{-$locale}/impressum'
import { Route as Char123LocaleChar125PrivacyRouteImport } from './routes/{-$locale}/privacy'
import { Route as Char123LocaleChar125TermsRouteImport } from './routes/{-$locale}/terms'
import { Route as Char123LocaleChar125VertragRouteImport } from './routes/{-$locale}/vertrag'
import { Route as Char123LocaleChar125ServiceIndexRouteImport } from './routes/{-$locale}/service/index'
import { Route as Char123LocaleChar125ServiceCareDieselRouteImport } from './routes/{-$locale}/service/care-diesel'
import { Route as Char123LocaleChar125ServiceCharterRouteImport } from './routes/{-$locale}/service/charter'
import { Route as Char123LocaleChar125ServiceDoorCodeRouteImport } from './routes/{-$locale}/service/door-code'
import { Route as Char123LocaleChar125ServiceIceMachineRouteImport } from './routes/{-$locale}/service/ice-machine'
import { Route as Char123LocaleChar125ServiceLiftRouteImport } from './routes/{-$locale}/service/lift'
import { Route as Char123LocaleChar125ServiceMechanistsRouteImport } from './routes/{-$locale}/service/mechanists'
import { Route as Char123LocaleChar125ServiceOrderRouteImport } from './routes/{-$locale}/service/order'
import { Route as Char123LocaleChar125ServiceParkRouteImport } from './routes/{-$locale}/service/park'
import { Route as Char123LocaleChar125ServiceSkipperTrainingRouteImport } from './routes/{-$locale}/service/skipper-training'
import { Route as Char123LocaleChar125ServiceWifiRouteImport } from './routes/{-$locale}/service/wifi'
import { Route as Char123LocaleChar125StartIndexRouteImport } from './routes/{-$locale}/start/index'
import { Route as Char123LocaleChar125StartPricesRouteImport } from './routes/{-$locale}/start/prices'
import { Route as Char123LocaleChar125StartBookingIndexRouteImport } from './routes/{-$locale}/start/booking/index'
import { Route as Char123LocaleChar125StartBookingResultChar123IdChar125RouteImport } from './routes/{-$locale}/start/booking/result/{-$id}'
import { lazyAccountRoutes, lazyAuthRoutes, lazyNewsRoutes, lazyOrderRoutes } from './router-lazy'

const Char123LocaleChar125RouteRoute = Char123LocaleChar125RouteRouteImport.update({
    id: '/{-$locale}',
    path: '/{-$locale}',
    getParentRoute: () => rootRouteImport,
  } as any)

const Char123LocaleChar125IndexRoute = Char123LocaleChar125IndexRouteImport.update({
    id: '/',
    path: '/',
    getParentRoute: () => Char123LocaleChar125RouteRoute,
  } as any)

const Char123LocaleChar125ContactRoute = Char123LocaleChar125ContactRouteImport.update({
    id: '/contact',
    path: '/contact',
    getParentRoute: () => Char123LocaleChar125RouteRoute,
  } as any)

const Char123LocaleChar125DroneVideoRoute = Char123LocaleChar125DroneVideoRouteImport.update({
    id: '/drone-video',
    path: '/drone-video',
    getParentRoute: () => Char123LocaleChar125RouteRoute,
  } as any)

const Char123LocaleChar125ImpressumRoute = Char123LocaleChar125ImpressumRouteImport.update({
    id: '/impressum',
    path: '/impressum',
    getParentRoute: () => Char123LocaleChar125RouteRoute,
  } as any)

const Char123LocaleChar125PrivacyRoute = Char123LocaleChar125PrivacyRouteImport.update({
    id: '/privacy',
    path: '/privacy',
    getParentRoute: () => Char123LocaleChar125RouteRoute,
  } as any)

const Char123LocaleChar125TermsRoute = Char123LocaleChar125TermsRouteImport.update({
    id: '/terms',
    path: '/terms',
    getParentRoute: () => Char123LocaleChar125RouteRoute,
  } as any)

const Char123LocaleChar125VertragRoute = Char123LocaleChar125VertragRouteImport.update({
    id: '/vertrag',
    path: '/vertrag',
    getParentRoute: () => Char123LocaleChar125RouteRoute,
  } as any)

const Char123LocaleChar125ServiceIndexRoute = Char123LocaleChar125ServiceIndexRouteImport.update({
    id: '/service/',
    path: '/service/',
    getParentRoute: () => Char123LocaleChar125RouteRoute,
  } as any)

const Char123LocaleChar125ServiceCareDieselRoute = Char123LocaleChar125ServiceCareDieselRouteImport.update({
    id: '/service/care-diesel',
    path: '/service/care-diesel',
    getParentRoute: () => Char123LocaleChar125RouteRoute,
  } as any)

const Char123LocaleChar125ServiceCharterRoute = Char123LocaleChar125ServiceCharterRouteImport.update({
    id: '/service/charter',
    path: '/service/charter',
    getParentRoute: () => Char123LocaleChar125RouteRoute,
  } as any)

const Char123LocaleChar125ServiceDoorCodeRoute = Char123LocaleChar125ServiceDoorCodeRouteImport.update({
    id: '/service/door-code',
    path: '/service/door-code',
    getParentRoute: () => Char123LocaleChar125RouteRoute,
  } as any)

const Char123LocaleChar125ServiceIceMachineRoute = Char123LocaleChar125ServiceIceMachineRouteImport.update({
    id: '/service/ice-machine',
    path: '/service/ice-machine',
    getParentRoute: () => Char123LocaleChar125RouteRoute,
  } as any)

const Char123LocaleChar125ServiceLiftRoute = Char123LocaleChar125ServiceLiftRouteImport.update({
    id: '/service/lift',
    path: '/service/lift',
    getParentRoute: () => Char123LocaleChar125RouteRoute,
  } as any)

const Char123LocaleChar125ServiceMechanistsRoute = Char123LocaleChar125ServiceMechanistsRouteImport.update({
    id: '/service/mechanists',
    path: '/service/mechanists',
    getParentRoute: () => Char123LocaleChar125RouteRoute,
  } as any)

const Char123LocaleChar125ServiceOrderRoute = Char123LocaleChar125ServiceOrderRouteImport.update({
    id: '/service/order',
    path: '/service/order',
    getParentRoute: () => Char123LocaleChar125RouteRoute,
  } as any)

const Char123LocaleChar125ServiceParkRoute = Char123LocaleChar125ServiceParkRouteImport.update({
    id: '/service/park',
    path: '/service/park',
    getParentRoute: () => Char123LocaleChar125RouteRoute,
  } as any)

const Char123LocaleChar125ServiceSkipperTrainingRoute = Char123LocaleChar125ServiceSkipperTrainingRouteImport.update({
    id: '/service/skipper-training',
    path: '/service/skipper-training',
    getParentRoute: () => Char123LocaleChar125RouteRoute,
  } as any)

const Char123LocaleChar125ServiceWifiRoute = Char123LocaleChar125ServiceWifiRouteImport.update({
    id: '/service/wifi',
    path: '/service/wifi',
    getParentRoute: () => Char123LocaleChar125RouteRoute,
  } as any)

const Char123LocaleChar125StartIndexRoute = Char123LocaleChar125StartIndexRouteImport.update({
    id: '/start/',
    path: '/start/',
    getParentRoute: () => Char123LocaleChar125RouteRoute,
  } as any)

const Char123LocaleChar125StartPricesRoute = Char123LocaleChar125StartPricesRouteImport.update({
    id: '/start/prices',
    path: '/start/prices',
    getParentRoute: () => Char123LocaleChar125RouteRoute,
  } as any)

const Char123LocaleChar125StartBookingIndexRoute = Char123LocaleChar125StartBookingIndexRouteImport.update({
    id: '/start/booking/',
    path: '/start/booking/',
    getParentRoute: () => Char123LocaleChar125RouteRoute,
  } as any)

const Char123LocaleChar125StartBookingResultChar123IdChar125Route = Char123LocaleChar125StartBookingResultChar123IdChar125RouteImport.update({
    id: '/start/booking/result/{-$id}',
    path: '/start/booking/result/{-$id}',
    getParentRoute: () => Char123LocaleChar125RouteRoute,
  } as any)

const Char123LocaleChar125RouteRouteChildren = {
  Char123LocaleChar125ContactRoute: Char123LocaleChar125ContactRoute,
  Char123LocaleChar125DroneVideoRoute: Char123LocaleChar125DroneVideoRoute,
  Char123LocaleChar125ImpressumRoute: Char123LocaleChar125ImpressumRoute,
  Char123LocaleChar125PrivacyRoute: Char123LocaleChar125PrivacyRoute,
  Char123LocaleChar125TermsRoute: Char123LocaleChar125TermsRoute,
  Char123LocaleChar125VertragRoute: Char123LocaleChar125VertragRoute,
  Char123LocaleChar125IndexRoute: Char123LocaleChar125IndexRoute,
  Char123LocaleChar125ServiceCareDieselRoute: Char123LocaleChar125ServiceCareDieselRoute,
  Char123LocaleChar125ServiceCharterRoute: Char123LocaleChar125ServiceCharterRoute,
  Char123LocaleChar125ServiceDoorCodeRoute: Char123LocaleChar125ServiceDoorCodeRoute,
  Char123LocaleChar125ServiceIceMachineRoute: Char123LocaleChar125ServiceIceMachineRoute,
  Char123LocaleChar125ServiceLiftRoute: Char123LocaleChar125ServiceLiftRoute,
  Char123LocaleChar125ServiceMechanistsRoute: Char123LocaleChar125ServiceMechanistsRoute,
  Char123LocaleChar125ServiceOrderRoute: Char123LocaleChar125ServiceOrderRoute,
  Char123LocaleChar125ServiceParkRoute: Char123LocaleChar125ServiceParkRoute,
  Char123LocaleChar125ServiceSkipperTrainingRoute: Char123LocaleChar125ServiceSkipperTrainingRoute,
  Char123LocaleChar125ServiceWifiRoute: Char123LocaleChar125ServiceWifiRoute,
  Char123LocaleChar125StartPricesRoute: Char123LocaleChar125StartPricesRoute,
  Char123LocaleChar125ServiceIndexRoute: Char123LocaleChar125ServiceIndexRoute,
  Char123LocaleChar125StartIndexRoute: Char123LocaleChar125StartIndexRoute,
  Char123LocaleChar125StartBookingIndexRoute: Char123LocaleChar125StartBookingIndexRoute,
  Char123LocaleChar125StartBookingResultChar123IdChar125Route: Char123LocaleChar125StartBookingResultChar123IdChar125Route,
  lazyAccountRoutes,
  lazyAuthRoutes,
  lazyNewsRoutes,
  lazyOrderRoutes,
}

const Char123LocaleChar125RouteRouteWithChildren = Char123LocaleChar125RouteRoute._addFileChildren(
    Char123LocaleChar125RouteRouteChildren,
  )

const rootRouteChildren = {
  Char123LocaleChar125RouteRoute: Char123LocaleChar125RouteRouteWithChildren,
}

export const publicRouteTree = rootRouteImport._addFileChildren(rootRouteChildren)
